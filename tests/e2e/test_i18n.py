"""The person's language (issue 35): the demo with `?lang=zh-CN` and `?lang=ar` (labels,
buttons, a field error and the card's notices in that language, `lang`/`dir` on the page and
the card, axe-core finding nothing), the right-to-left card laid out mirrored, and a host's
`messages` override shown by `elicit`. Server text stays as the server sent it.

axe-core is the pinned copy tests/element installs (tests/element/run.sh, `npm ci`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from demo_server.texts import BookTable
from harness import button, control_by_label, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, card

AXE = Path(__file__).resolve().parents[1] / "element" / "node_modules" / "axe-core" / "axe.min.js"

# The catalogs' words the tests look for (web/src/i18n/catalogs/).
WORDS = {
    "zh-CN": {
        "server_url": "服务器 URL",
        "connect": "连接",
        "call_tool": "调用工具",
        "submit": "提交",
        "decline": "拒绝",
        "cancel": "取消",
        "trust": "请只把这些信息提供给您信任的服务器。",
        "asked_by": "请求方：",
        "required": "此字段为必填项。",
        "prompts": "提示词",
        "resources": "资源",
        "get_prompt": "获取提示词",
        "read_resource": "读取资源",
        "connected": "已连接 · ",
        "protocol_problem": "protocol 参数 \"9999\" 不是 auto、2026-07-28 或 2025-11-25 之一",
        "dir": "ltr",
    },
    "ar": {
        "server_url": "عنوان URL للخادم",
        "connect": "اتصال",
        "call_tool": "استدعاء الأداة",
        "submit": "إرسال",
        "decline": "رفض",
        "cancel": "إلغاء",
        "trust": "لا تقدّم هذه المعلومات إلا لخادم تثق به.",
        "asked_by": "يطلبه",
        "required": "هذا الحقل مطلوب.",
        "prompts": "الموجّهات",
        "resources": "الموارد",
        "get_prompt": "جلب الموجّه",
        "read_resource": "قراءة المورد",
        "connected": "متصل · ",
        "protocol_problem": "المعامل protocol \"9999\" ليس auto ولا 2026-07-28 ولا 2025-11-25",
        "dir": "rtl",
    },
}


def axe_violations(driver: Any) -> list[str]:
    assert AXE.is_file(), f"axe-core is missing: run tests/element/run.sh once (npm ci) to install {AXE}"
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        window.axe.run(document, { resultTypes: ["violations"] }).then(
          (r) => done(r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))),
          (e) => done(["axe failed: " + e]),
        );
        """
    )
    return list(result)


def open_in(driver: Any, app_url: Any, server: Any, lang: str) -> Any:
    """The demo in `lang` on `server`, book_table's form filled in for the full date."""
    url = app_url(server=server.url, protocol=LEGACY, tool="book_table", args={"date": BookTable.FULL_DATE, "party_size": 2})
    driver.get(f"{url}&lang={lang}")
    # The connection line in the language too (English's is the DOM contract's).
    wait_text(driver, "[data-testid=connection-status]", WORDS.get(lang, {}).get("connected", "connected · ") + LEGACY)
    return wait_css(driver, "[data-tool=book_table]")


@pytest.mark.parametrize("lang", ["zh-CN", "ar"])
def test_the_demo_speaks_the_language_of_its_link(driver: Any, app_url: Any, demo_server: Any, lang: str) -> None:
    words = WORDS[lang]
    tool = open_in(driver, app_url, demo_server, lang)
    root = driver.find_element("css selector", "html")
    assert (root.get_attribute("lang"), root.get_attribute("dir")) == (lang, words["dir"])
    assert control_by_label(driver, words["server_url"]) is not None
    assert button(driver, words["connect"]) is not None

    # A field error in the language: the tool's required Date left empty.
    from selenium.webdriver.common.keys import Keys

    date = control_by_label(tool, "Date")
    # Erased by keys, so the form hears each input event.
    date.send_keys(Keys.CONTROL + "a", Keys.BACKSPACE)
    button(tool, words["call_tool"]).click()
    wait_text(driver, "[data-tool=book_table]", words["required"])

    date.send_keys(BookTable.FULL_DATE)
    button(wait_css(driver, "[data-tool=book_table]"), words["call_tool"]).click()
    form = card(driver, "form", BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE))
    assert (form.get_attribute("lang"), form.get_attribute("dir")) == (lang, words["dir"])
    for name in ("submit", "decline", "cancel"):
        assert button(form, words[name]) is not None
    assert words["trust"] in form.text
    assert words["asked_by"] in form.find_element("css selector", "[data-testid=requesting-server]").text
    # The server's own text is not translated.
    assert BookTable.ACCEPT_ALTERNATIVE in form.text

    assert axe_violations(driver) == []


@pytest.mark.parametrize("lang", ["zh-CN", "ar"])
def test_the_demo_says_a_link_s_problems_in_its_language(driver: Any, app_url: Any, lang: str) -> None:
    driver.get(f"{app_url()}?lang={lang}&protocol=9999")
    wait_text(driver, "[data-testid=query-error]", WORDS[lang]["protocol_problem"])


@pytest.mark.parametrize("lang", ["zh-CN", "ar"])
def test_the_demo_s_prompts_and_resources_speak_it_too(driver: Any, app_url: Any, demo_server: Any, lang: str) -> None:
    """The demo's own headings and buttons of the prompts and resources, in the language."""
    words = WORDS[lang]
    open_in(driver, app_url, demo_server, lang)
    prompts = wait_css(driver, "section.prompts")
    assert prompts.find_element("css selector", "h2").text == words["prompts"]
    assert prompts.get_attribute("aria-label") == words["prompts"]
    assert button(wait_css(driver, "[data-prompt=trip_brief]"), words["get_prompt"]) is not None
    resources = wait_css(driver, "section.resources")
    assert resources.find_element("css selector", "h2").text == words["resources"]
    template = wait_css(driver, "[data-resource-template='notes://{name}']")
    assert button(template, words["read_resource"]) is not None


def test_the_right_to_left_card_mirrors(driver: Any, app_url: Any, demo_server: Any) -> None:
    """The primary button leads the row: leftmost in English, rightmost in Arabic."""
    positions = {}
    for lang in ("en", "ar"):
        tool = open_in(driver, app_url, demo_server, lang)
        call = "Call tool" if lang == "en" else WORDS["ar"]["call_tool"]
        button(tool, call).click()
        form = card(driver, "form", BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE))
        names = ("Submit", "Cancel") if lang == "en" else (WORDS["ar"]["submit"], WORDS["ar"]["cancel"])
        first, last = (button(form, n).rect["x"] for n in names)
        positions[lang] = (first, last)
        direction = driver.execute_script("return getComputedStyle(arguments[0]).direction", form)
        assert direction == ("ltr" if lang == "en" else "rtl")
    assert positions["en"][0] < positions["en"][1], positions
    assert positions["ar"][0] > positions["ar"][1], positions


def test_a_host_override_shows_and_lang_on_the_element(driver: Any, www: Any) -> None:
    driver.get(f"{www.origin}/element.html")
    wait_for(driver, lambda d: d.execute_script("return !!document.querySelector('mcp-elicitation').shadowRoot?.querySelector('[data-elicitation]')"), "the element's card")
    params = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string", "title": "N", "minLength": 2}}}}
    refused = driver.execute_async_script(
        """
        const [params, done] = [arguments[0], arguments[arguments.length - 1]];
        import("./pkg/mcp_elicit_web.js").then((m) => {
          const host = document.createElement("div");
          host.id = "host-card";
          document.body.append(host);
          m.elicit(host, params, { locale: "fr", messages: { "button.submit": "C'est parti" } });
          // An override whose placeholders differ from English's is refused in words.
          m.elicit(document.createElement("div"), params, { messages: { "error.min_length": "{n}" } })
            .then(() => done("taken"), (e) => done(String(e)));
        });
        """,
        params,
    )
    host = wait_css(driver, "#host-card [data-elicitation]")
    assert host.get_attribute("lang") == "fr"
    assert button(host, "C'est parti") is not None, "the host's text replaces the catalog's"
    assert button(host, "Refuser") is not None, "the rest is the catalog's"
    assert "messages.error.min_length: the text must use the placeholders {count}" in refused, refused
    # `lang` on <mcp-elicitation> chooses the element's card's language.
    driver.execute_script(
        "const el = document.querySelector('mcp-elicitation'); el.setAttribute('lang', 'de'); el.params = arguments[0];",
        params,
    )
    wait_for(
        driver,
        lambda d: d.execute_script(
            "const c = document.querySelector('mcp-elicitation').shadowRoot.querySelector('[data-elicitation]');"
            "return c && c.getAttribute('lang') === 'de' && c.textContent.includes('Ablehnen');"
        ),
        "the element's card in German",
    )


CATALOG_FETCHES = "return performance.getEntriesByType('resource').map((r) => r.name).filter((n) => n.includes('/i18n/'))"

ASK = {"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string", "title": "N"}}, "required": ["n"]}}


def elicit_in_page(driver: Any, slot: str, options: dict[str, Any], params: dict[str, Any] = ASK) -> None:
    """`elicit` of `params` from www/pkg into a new `<div id=slot>`, its answer kept in
    `window.answers`."""
    driver.execute_async_script(
        """
        const [slot, params, options, done] = arguments;
        import("./pkg/mcp_elicit_web.js").then((m) => {
          const host = document.createElement("div");
          host.id = slot;
          document.body.append(host);
          window.answers = window.answers || {};
          m.elicit(host, params, options).then(
            (r) => { window.answers[slot] = r; },
            (e) => { window.answers[slot] = { error: String(e) }; },
          );
          done();
        });
        """,
        slot,
        params,
        options,
    )


def test_a_page_in_english_fetches_no_catalog(driver: Any, www: Any) -> None:
    """English is compiled in: a page whose cards are English loads no catalog file; a card
    in Japanese loads Japanese's alone (the same count seeing it shows the count sees them)."""
    driver.get(f"{www.origin}/element.html")
    wait_for(driver, lambda d: d.execute_script("return !!document.querySelector('mcp-elicitation').shadowRoot?.querySelector('[data-elicitation]')"), "the element's card")
    elicit_in_page(driver, "english", {"locale": "en"})
    english = wait_css(driver, "#english [data-elicitation]")
    assert english.get_attribute("lang") == "en"
    assert driver.execute_script(CATALOG_FETCHES) == [], "a page in English fetched a catalog"
    elicit_in_page(driver, "japanese", {"locale": "ja"})
    japanese = wait_css(driver, "#japanese [data-elicitation]")
    assert japanese.get_attribute("lang") == "ja"
    fetched = driver.execute_script(CATALOG_FETCHES)
    assert [f.rsplit("/", 1)[-1] for f in fetched] == ["ja.js"], fetched


def test_a_refused_form_says_why_in_the_card_s_language(driver: Any, www: Any) -> None:
    """A form the client cannot show says why in the card's language: the refusal's words
    come from its code, the field's name is the server's, and the JSON type found is a word
    of the language. Decline and Cancel stay, in that language too."""
    driver.get(f"{www.origin}/element.html")
    wait_for(driver, lambda d: d.execute_script("return !!document.querySelector('mcp-elicitation').shadowRoot?.querySelector('[data-elicitation]')"), "the element's card")
    nested = {"message": "Adresse?", "requestedSchema": {"type": "object", "properties": {"adresse": {"type": "object"}}}}
    elicit_in_page(driver, "refused-de", {"locale": "de"}, nested)
    wait_text(
        driver,
        "#refused-de [data-elicitation]",
        "Diese Anfrage kann nicht als Formular angezeigt werden: „adresse“ ist ein verschachteltes "
        "Objekt; unterstützt werden nur flache Felder. (bei /properties/adresse)",
    )
    assert button(wait_css(driver, "#refused-de [data-elicitation]"), "Ablehnen") is not None
    not_object = {"message": "?", "requestedSchema": {"type": "string"}}
    elicit_in_page(driver, "refused-zh", {"locale": "zh-CN"}, not_object)
    wait_text(driver, "#refused-zh [data-elicitation]", "无法以表单形式显示此请求：请求的 Schema 的“type”必须为“object”，而不是字符串。（位置：/type）")


def test_a_refused_link_says_why_in_the_card_s_language(driver: Any, www: Any) -> None:
    """A URL-mode link the client will not open says why in the card's language, the scheme
    quoted as it is; no Open button."""
    driver.get(f"{www.origin}/element.html")
    wait_for(driver, lambda d: d.execute_script("return !!document.querySelector('mcp-elicitation').shadowRoot?.querySelector('[data-elicitation]')"), "the element's card")
    link = {"mode": "url", "message": "Pagar", "url": "ftp://pay.example/x", "elicitationId": "e-1"}
    elicit_in_page(driver, "refused-url", {"locale": "es"}, link)
    card = wait_text(
        driver,
        "#refused-url [data-elicitation]",
        "Solo se pueden abrir enlaces https:; este usa ftp:.",
    )
    assert "Este enlace no se puede abrir." in card.text
    names = [b.text.strip() for b in card.find_elements("css selector", "button")]
    assert "Abrir en una pestaña nueva" not in names and "Rechazar" in names, names


def test_a_catalog_that_fails_to_load_leaves_the_card_english(driver: Any, www: Any) -> None:
    """A catalog that cannot be fetched: the card shows in English (lang `en`), the host's
    override still shows, nothing panics, and the answer comes back."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/i18n/de.js"]})
    try:
        driver.get(f"{www.origin}/element.html")
        wait_for(driver, lambda d: d.execute_script("return !!document.querySelector('mcp-elicitation').shadowRoot?.querySelector('[data-elicitation]')"), "the element's card")
        elicit_in_page(driver, "german", {"locale": "de", "messages": {"button.decline": "Nein danke"}})
        card = wait_css(driver, "#german [data-elicitation]")
        assert card.get_attribute("lang") == "en"
        assert card.get_attribute("dir") == "ltr"
        assert button(card, "Submit") is not None, "the catalog's words are English's"
        assert button(card, "Nein danke") is not None, "the host's override still shows"
        control_by_label(card, "N").send_keys("Ada")
        button(card, "Submit").click()
        wait_for(driver, lambda d: d.execute_script("return window.answers.german"), "the answer")
        assert driver.execute_script("return window.answers.german") == {"action": "accept", "content": {"n": "Ada"}}
        # <mcp-elicitation lang="de"> the same way.
        driver.execute_script(
            "const el = document.querySelector('mcp-elicitation'); el.setAttribute('lang', 'de'); el.params = arguments[0];",
            ASK,
        )
        wait_for(
            driver,
            lambda d: d.execute_script(
                "const c = document.querySelector('mcp-elicitation').shadowRoot.querySelector('[data-elicitation]');"
                "return c && c.textContent.includes('Name?') && c.getAttribute('lang') === 'en' && c.textContent.includes('Decline');"
            ),
            "the element's card in English",
        )
        panics = [e["message"] for e in driver.get_log("browser") if "panicked" in e["message"] or "unreachable" in e["message"]]
        assert panics == [], panics
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_mcp_client_s_cards_are_in_its_locale_from_their_first_paint(driver: Any, www: Any, demo_server: Any) -> None:
    """McpClient.connect loads its locale's catalog before it connects: the first card it
    shows is Japanese as it enters the page (seen by a MutationObserver), not English first."""
    driver.get(f"{www.origin}/element.html")
    error = driver.execute_async_script(
        """
        const [url, args, done] = arguments;
        import("./pkg/mcp_elicit_host.js").then(async (m) => {
          await m.default();
          const box = document.createElement("div");
          box.id = "client-cards";
          document.body.append(box);
          window.firstLang = null;
          new MutationObserver(() => {
            const card = box.querySelector("[data-elicitation]");
            if (card && window.firstLang === null) window.firstLang = card.getAttribute("lang");
          }).observe(box, { childList: true, subtree: true });
          const client = await m.McpClient.connect(url, { container: box, locale: "ja", protocol: "2025-11-25" });
          window.called = client.callTool("book_table", args);
          done(null);
        }).catch((e) => done(String(e)));
        """,
        demo_server.url,
        {"date": BookTable.FULL_DATE, "party_size": 2},
    )
    assert error is None, error
    form = wait_css(driver, "#client-cards [data-elicitation]")
    assert driver.execute_script("return window.firstLang") == "ja"
    assert form.get_attribute("lang") == "ja"
    assert button(form, "送信") is not None
