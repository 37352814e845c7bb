//! Where an engine sends its events: replays collect them, simulations drop them.

/// Receives an engine's events of type `E`, in order.
pub trait EventSink<E> {
    /// Whether events are kept: a driver may skip the work of describing a decision for a
    /// sink that drops it.
    const ACTIVE: bool = true;
    /// Whether the players' notes (why a bot chose its move) are wanted beside the game's
    /// events: not where the account goes to a seat at the table.
    const NOTES: bool = true;
    /// Called for each event.
    fn event(&mut self, event: E);
}

/// The sink the simulation uses: it drops every event (and compiles to nothing).
pub struct NoEvents;

impl<E> EventSink<E> for NoEvents {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: E) {}
}

impl<E> EventSink<E> for Vec<E> {
    fn event(&mut self, event: E) {
        self.push(event);
    }
}
