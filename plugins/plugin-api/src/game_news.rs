//! What game plug-ins tell the plug-ins called after them in a frame about the game: the events
//! they saw happen (a spawn, a game over) and the game as they decode it. A plug-in that passes
//! the game on to a bot in another process reads it here (`docs/bot-protocol.md`), knowing no
//! game itself.

/// One event a plug-in announced in the frame just run ([`crate::FrameContext::announce`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announcement {
    /// The plug-in that announced it.
    pub plugin: String,
    /// The event's name, one of the plug-in's [`crate::Plugin::events`].
    pub event: String,
}

/// The plug-ins called before this one in the frame, as far as the game goes.
pub trait GameNews {
    /// The events they announced in this frame, in order.
    fn announced(&self) -> &[Announcement];

    /// Each one's description of the game at the end of this frame
    /// ([`crate::Plugin::describe`]): its name and one JSON object. Decoded on asking, so
    /// a plug-in that does not need it pays nothing.
    fn descriptions(&self) -> Vec<(String, String)>;

    /// The events they can announce, by plug-in.
    fn offered(&self) -> Vec<(String, Vec<String>)>;
}

/// No plug-in before this one (a plug-in called without a host, or first).
pub struct NoNews;

impl GameNews for NoNews {
    fn announced(&self) -> &[Announcement] {
        &[]
    }

    fn descriptions(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn offered(&self) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }
}
