//! One RAM image (the fuzzer's bytes, zero-padded) through the decoder, the inspector and the
//! engine's board.

use jewelbot_plugin::{Ram, RAM_SIZE};
use magic_jewelry_engine::Board;
use magic_jewelry::game_view::{GameView, Grid};

pub fn run(data: &[u8]) {
    let mut ram: Ram = [0; RAM_SIZE];
    let len = data.len().min(RAM_SIZE);
    ram[..len].copy_from_slice(&data[..len]);
    through_everything(&ram);
}

/// Every decoding path of a frame of RAM.
pub fn through_everything(ram: &Ram) {
    let decoded = GameView::decode(ram);
    let grid = match &decoded {
        Ok(view) => view.board,
        Err(_) => Grid::from_ram(ram),
    };
    let _ = Board::from_grid(&grid.0);
    let _ = grid.text_lines();
    let _ = magic_jewelry::plugin::inspect(ram);
    if let Ok(view) = decoded {
        let _ = view.clear_timer();
        let _ = view.phase.to_string();
    }
}
