//! Bringing into view what the person's own action produced (a card, an alert, a result),
//! the least scroll that shows it, without motion for those who asked for none.

/// Scrolls the page (and any scrolled box around `el`) the least that shows `el`: all of
/// it when it fits the window, else its top, where what it says begins. Smooth, unless the
/// person prefers reduced motion. Focus is left where it is.
pub fn reveal(el: &web_sys::Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let reduced = window
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|q| q.matches());
    let tall = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .is_some_and(|h| el.get_bounding_client_rect().height() > h);
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(if tall {
        web_sys::ScrollLogicalPosition::Start
    } else {
        web_sys::ScrollLogicalPosition::Nearest
    });
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    options.set_behavior(if reduced {
        web_sys::ScrollBehavior::Instant
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    el.scroll_into_view_with_scroll_into_view_options(&options);
}
