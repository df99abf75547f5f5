//! A `setTimeout` future, for the modern era's back-off and the GET stream's reconnect delay,
//! and a bound on how long any future may take ([`within`]).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures::future::{select, Either};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A pending `setTimeout`. Dropped before it fires (the work it bounded finished first),
/// it clears the timer and frees its callback at once, instead of when the delay (up to
/// minutes) runs out: a host that answers cards for days keeps nothing of requests long
/// done. The callback is a closure of ours, not a Promise awaited as a `JsFuture`: a
/// `JsFuture` whose Promise never settles (the timer cleared) would keep its two callbacks,
/// and their JS values, for the page's lifetime.
pub struct Sleep {
    timer: Option<i32>,
    state: Rc<State>,
    /// Freed when the `Sleep` is, after [`Drop`] has cleared the timer that could call it.
    _callback: Option<Closure<dyn FnMut()>>,
}

/// What the timer's callback and the future share.
#[derive(Default)]
struct State {
    fired: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.state.fired.get() {
            self.timer = None;
            return Poll::Ready(());
        }
        *self.state.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if let (Some(timer), Some(window)) = (self.timer.take(), web_sys::window()) {
            window.clear_timeout_with_handle(timer);
        }
        // The waker may own the task that owns this `Sleep`: let go of it here.
        self.state.waker.borrow_mut().take();
    }
}

/// Resolves after `ms` milliseconds (at once outside a window, e.g. in a worker without one).
pub fn sleep(ms: u32) -> Sleep {
    let delay = i32::try_from(ms).unwrap_or(i32::MAX);
    let state = Rc::new(State::default());
    let shared = Rc::clone(&state);
    let callback = Closure::<dyn FnMut()>::new(move || {
        shared.fired.set(true);
        let waker = shared.waker.borrow_mut().take();
        if let Some(waker) = waker {
            waker.wake();
        }
    });
    let timer = web_sys::window().and_then(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(
            callback.as_ref().unchecked_ref(),
            delay,
        )
        .ok()
    });
    if timer.is_none() {
        state.fired.set(true);
    }
    Sleep {
        timer,
        state,
        _callback: timer.map(|_| callback),
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
