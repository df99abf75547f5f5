"""The shared browser (`conftest.Browsers`): each test gets it as a fresh one shows itself."""

from __future__ import annotations

from typing import Any

from harness import StaticServer, wait_text


def test_a_cleared_browser_keeps_nothing_of_the_last_test(browsers: Any, www: StaticServer) -> None:
    browser = browsers.take()
    size = browser.get_window_size()
    timeouts = browser.timeouts
    assert browser.window_handles == [browser.current_window_handle]

    # What a test may leave behind: another tab, a smaller window, short timeouts, emulated
    # dark mode, a cookie, console errors, and a page still running.
    browser.get(f"{www.origin}/embed.html")
    wait_text(browser, "h1", "Embedding example")
    browser.execute_script("window.open('about:blank', '_blank'); document.cookie = 'left=behind';")
    # Stored data of the page's origin: localStorage and an IndexedDB database.
    browser.execute_async_script(
        "const done = arguments[0]; localStorage.setItem('left', 'behind'); "
        "const open = indexedDB.open('left-behind'); open.onsuccess = () => { open.result.close(); done(); };"
    )
    assert browser.execute_script("return localStorage.getItem('left')") == "behind"
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
    )
    browser.execute_script("console.error('left behind')")
    browser.set_window_size(360, 800)
    browser.set_script_timeout(3)
    assert len(browser.window_handles) == 2
    assert browser.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") is True

    again = browsers.take()
    assert again is browser, "the same browser, not a new one"
    assert len(again.window_handles) == 1
    assert again.current_url == "about:blank"
    assert again.get_window_size() == size
    assert again.timeouts.script == timeouts.script == 30
    assert again.get_log("browser") == []
    again.get(f"{www.origin}/embed.html")
    wait_text(again, "h1", "Embedding example")
    assert again.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert again.execute_script("return document.cookie") == ""
    assert again.execute_script("return localStorage.length") == 0
    databases = again.execute_async_script("indexedDB.databases().then((list) => arguments[0](list.map((d) => d.name)))")
    assert "left-behind" not in databases
    browsers.clear()
