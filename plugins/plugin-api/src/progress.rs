//! Progress bars on standard error (indicatif draws them only when it is a terminal): one style
//! for every long command, the lab's and the host's.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `total` steps of `what`, with the rate and the time left.
pub fn bar(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({per_sec}, eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_owned());
    bar
}

/// [`bar`], or a hidden one when `show` is false (`--quiet`).
pub fn bar_if(show: bool, total: u64, what: &str) -> ProgressBar {
    if show {
        bar(total, what)
    } else {
        ProgressBar::hidden()
    }
}

/// A spinner for work whose length is not known ahead.
pub fn spinner(what: &str) -> ProgressBar {
    ProgressBar::new_spinner().with_message(what.to_owned())
}
