//! A `setTimeout` future, for the modern era's back-off and the GET stream's reconnect delay,
//! and a bound on how long any future may take ([`within`]).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::future::{select, Either};
use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// A pending `setTimeout`. Dropped before it fires (the work it bounded finished first),
/// it clears the timer, so the browser lets go of the callback and the Promise behind it
/// at once instead of when the delay (up to minutes) runs out: a host that answers cards
/// for days keeps no timers of requests long done.
pub struct Sleep {
    timer: Option<i32>,
    done: JsFuture,
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match Pin::new(&mut self.done).poll(cx) {
            Poll::Ready(_) => {
                self.timer = None;
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if let (Some(timer), Some(window)) = (self.timer.take(), web_sys::window()) {
            window.clear_timeout_with_handle(timer);
        }
    }
}

/// Resolves after `ms` milliseconds (at once outside a window, e.g. in a worker without one).
pub fn sleep(ms: u32) -> Sleep {
    let delay = i32::try_from(ms).unwrap_or(i32::MAX);
    let mut timer = None;
    let promise = Promise::new(&mut |resolve, _reject| {
        timer = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, delay)
                .ok()
        });
        if timer.is_none() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    Sleep {
        timer,
        done: JsFuture::from(promise),
    }
}

/// `work`'s output, or `None` when it has not finished after `ms` milliseconds (it is then
/// dropped: whatever it owned, e.g. a response body, is released). To stop a `fetch` on the
/// wire too, give it an `AbortSignal` and abort on `None` (the client's
/// `exchange::bounded` does both, for the POSTs of either era).
pub async fn within<F: Future>(ms: u32, work: F) -> Option<F::Output> {
    let timer = sleep(ms);
    futures::pin_mut!(work, timer);
    match select(work, timer).await {
        Either::Left((output, _)) => Some(output),
        Either::Right(((), _)) => None,
    }
}
