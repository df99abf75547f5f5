"""Connection errors in words: a server without CORS, and a server that is not there."""

from __future__ import annotations

from typing import Any

from harness import free_port, wait_text


def test_server_without_cors_is_named_as_the_problem(driver: Any, app_url: Any, make_demo_server: Any) -> None:
    server = make_demo_server(["--no-cors"])
    driver.get(app_url(server=server.url))
    status = wait_text(driver, "[data-testid=connection-status]", "CORS")
    assert "blocked" in status.text
    alert = wait_text(driver, "[data-testid=app-error][role=alert]", "Access-Control-Allow-Origin")
    assert "mcp-session-id" in alert.text


def test_unreachable_server_is_named_as_the_problem(driver: Any, app_url: Any) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    driver.get(app_url(server=url))
    status = wait_text(driver, "[data-testid=connection-status]", "Cannot reach the server")
    assert url in status.text
