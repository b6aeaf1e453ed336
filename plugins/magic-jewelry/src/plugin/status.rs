//! The status lines and overlay marks the plug-in publishes every frame: who plays and how (the
//! strategy, mode, objective and foresight), why the column goes where it goes, the game's
//! phase and speed, the decision times and counts, and the outlines of the target, its
//! runners-up and where the next column would go.

use super::MagicJewelryPlugin;
use crate::game_view::GameView;
use crate::screen;
use jewelbot_plugin::FrameContext;

pub(super) fn show(
    plugin: &MagicJewelryPlugin,
    ctx: &mut FrameContext<'_>,
    view: &GameView,
    note: Option<String>,
) {
    let Some(player) = &plugin.player else {
        return;
    };
    let stats = plugin.tracker.stats();
    let work = player.stats();
    let plan = player.plan().filter(|_| plugin.in_control);
    let geometry = plugin.geometry;
    let status = ctx.status();
    let who = if plugin.in_control {
        format!(
            "AI plays: {}, {} mode, {} objective, {}",
            player.strategy_name(),
            player.mode(),
            plugin.settings.player.objective,
            player.foresight_status()
        )
    } else {
        "the AI watches (it does not hold the controller)".to_owned()
    };
    status.lines = vec![who];
    if let Some(why) = plan.and_then(|plan| plan.short_explanation.as_deref()) {
        status.lines.push(format!("why: {why}"));
    }
    status.lines.extend([
        format!(
            "{} | level {} at {} frames a row | after a game over: {}",
            view.phase,
            view.level,
            view.fall_speed,
            player.after_game_over()
        ),
        format!(
            "decision {} us median, {} us max | columns {} | game overs {}",
            work.decision_times.median().as_micros(),
            work.decision_times.max().as_micros(),
            stats.columns_placed,
            stats.game_overs
        ),
    ]);
    status.marks.clear();
    if let Some(plan) = plan {
        // Runners-up first, so the target's outline is drawn over theirs.
        for other in plan.candidates.iter().skip(1) {
            let mark = geometry.column_mark_in(other.x, other.y, screen::RUNNER_UP);
            status.marks.push(mark);
        }
        if let Some(next) = plan.next {
            let mark = geometry.column_mark_in(next.x, next.y, screen::NEXT_PLAN);
            status.marks.push(mark);
        }
        status
            .marks
            .push(geometry.column_mark(plan.target_x, plan.target_y));
    }
    status.notes.extend(note);
}
