//! fm2 movies: a session's controller 1 recorded from power-on plays back bit for bit; movies
//! of another ROM, damaged ones and existing output files are refused.

mod common;
use common::cartridge;

use common::jewelbot;
use jewelbot_host::movie::file::{self as movie_file, MovieFileError};
use jewelbot_host::movie::{rom_md5, Movie, MovieFrame, PowerOnRam};
use jewelbot_host::rom::RomImage;
use jewelbot_host::session::{Control, Session, SessionConfig, SessionError};
use jewelbot_plugin::{Buttons, Plugin};
use magic_jewelry::plugin::MagicJewelryPlugin;
use std::path::Path;
use std::sync::OnceLock;

/// Frames of AI play recorded: the title, a game started and columns placed.
const FRAMES: u64 = 1_200;

fn fast_ai() -> Vec<Box<dyn Plugin>> {
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("a mode it has");
    vec![Box::new(plugin)]
}

/// The fast player with a work budget and no time budget: the same buttons on any machine
/// under any load, so that two consoles can be compared frame by frame.
fn deterministic_ai() -> Vec<Box<dyn Plugin>> {
    let mut plugin = MagicJewelryPlugin::default();
    plugin.set_option("mode", "fast").expect("a mode it has");
    plugin.set_option("work", "3000").expect("a budget");
    vec![Box::new(plugin)]
}

fn open_cartridge(plugins: Vec<Box<dyn Plugin>>) -> Session {
    let rom = cartridge().expect("the open cartridge parses");
    Session::new(rom, plugins, SessionConfig::default()).expect("loads")
}

fn run(session: &mut Session, frames: u64) {
    for _ in 0..frames {
        session.run_frame().expect("frame");
    }
}

/// A movie of `FRAMES` frames of the AI playing, and the RAM at its end: played once for
/// every test that needs it.
fn recorded_ai_play() -> (Movie, Vec<u8>) {
    static PLAYED: OnceLock<(Movie, Vec<u8>)> = OnceLock::new();
    PLAYED
        .get_or_init(|| {
            let mut session = open_cartridge(fast_ai());
            session.record_movie().expect("at power-on");
            run(&mut session, FRAMES);
            let movie = session.take_recorded_movie().expect("recording");
            (movie, session.ram().to_vec())
        })
        .clone()
}

#[test]
fn ai_play_recorded_plays_back_bit_for_bit_with_the_ai_off() {
    let (movie, ram_recorded) = recorded_ai_play();
    assert_eq!(movie.frames.len() as u64, FRAMES);
    let pressed = movie
        .frames
        .iter()
        .filter(|f| f.buttons != Buttons::NONE)
        .count();
    assert!(pressed >= 50, "the AI pressed on only {pressed} frames");
    assert!(movie.frames.iter().all(|f| !f.reset));

    // Through the file format, as a user's movie comes. Three consoles, each on a thread of
    // its own: the movie alone, no movie, and the movie with the AI on.
    let movie = Movie::parse(&movie.to_fm2()).expect("our own fm2 parses");
    let console = |movie: Option<&Movie>, plugins: Vec<Box<dyn Plugin>>, control: Control| {
        let mut session = open_cartridge(plugins);
        session.set_control(control);
        if let Some(movie) = movie {
            session.play_movie(movie.clone()).expect("same ROM");
        }
        run(&mut session, FRAMES);
        (session.movie_playback(), session.ram().to_vec())
    };
    let (played, idle, with_ai) = std::thread::scope(|scope| {
        let idle = scope.spawn(|| console(None, Vec::new(), Control::Manual));
        let with_ai = scope.spawn(|| console(Some(&movie), fast_ai(), Control::Plugins));
        let played = console(Some(&movie), Vec::new(), Control::Manual);
        let join = |h: std::thread::ScopedJoinHandle<'_, _>| h.join().expect("the console runs");
        (played, join(idle), join(with_ai))
    });
    assert_eq!(played.0, Some((FRAMES as usize, FRAMES as usize)));
    assert!(played.1 == ram_recorded, "RAM differs after playback");
    // The movie is what made that RAM: without it the console does something else.
    assert!(idle.1 != ram_recorded, "the movie changed nothing");
    // With the AI on, the movie still drives controller 1 for its frames.
    assert!(with_ai.1 == ram_recorded, "the AI's buttons leaked in");
}

/// The frame on which the cartridge shows its title ($46 = $83).
fn title_frame(session: &mut Session) -> u64 {
    while session.ram()[0x46] != 0x83 {
        assert!(session.frame_number() < 100, "no title");
        session.run_frame().expect("frame");
    }
    session.frame_number()
}

/// The cartridge boots as the real game does whether or not the PPU ignores its first
/// writes: title on frame 6, and the same game frame for frame after.
#[test]
fn the_cartridge_boots_alike_with_and_without_ppu_warm_up() {
    let rom = || cartridge().expect("parses");
    let mut cold = open_cartridge(deterministic_ai());
    let warm_up = SessionConfig {
        ppu_warmup: true,
        ..SessionConfig::default()
    };
    let mut warming = Session::new(rom(), deterministic_ai(), warm_up).expect("loads");
    assert_eq!(title_frame(&mut cold), 6);
    assert_eq!(title_frame(&mut warming), 6);
    for _ in 0..1_500 {
        cold.run_frame().expect("frame");
        warming.run_frame().expect("frame");
        assert!(
            cold.ram() == warming.ram(),
            "frame {}: RAM differs with PPU warm-up",
            cold.frame_number()
        );
    }
    // The AI started a game and placed columns in that time.
    assert!(cold.ram()[0x5B] != 0, "no game started");
}

/// A movie's power-on RAM is the console's: FCEUX's pattern, all ones, a seeded fill; a
/// recording made on such a console says so in its header.
#[test]
fn movies_power_the_console_on_as_their_header_says() {
    let rom = cartridge().expect("parses");
    for fill in [
        PowerOnRam::FceuxPattern,
        PowerOnRam::AllOnes,
        PowerOnRam::Seeded(31_337),
    ] {
        let mut movie = Movie::new(&rom.name, rom_md5(&rom.prg, &rom.chr));
        movie.power_on = fill;
        movie.frames = vec![MovieFrame::default(); 3];
        let mut session = open_cartridge(Vec::new());
        session.record_movie().expect("at power-on");
        session.play_movie(movie).expect("same ROM");
        let mut want = vec![0; 0x800];
        fill.fill(&mut want);
        assert!(session.ram() == &want[..], "{fill}: RAM before frame 1");
        run(&mut session, 3);
        let recorded = session.take_recorded_movie().expect("recording");
        assert_eq!(recorded.power_on, fill, "the recording's header");
        session.power_cycle().expect("power cycle");
        assert!(
            session.ram() == &want[..],
            "{fill}: RAM after a power cycle"
        );
    }
}

#[test]
fn a_soft_reset_is_recorded_and_played_back() {
    let rom = || RomImage::from_bytes("tiny.nes", &common::tiny_rom()).expect("parses");
    let mut session = Session::new(rom(), Vec::new(), SessionConfig::default()).expect("loads");
    session.set_control(Control::Manual);
    session.record_movie().expect("at power-on");
    session.set_manual_buttons(Buttons::A | Buttons::RIGHT);
    run(&mut session, 10);
    session.reset();
    session.set_manual_buttons(Buttons::START);
    run(&mut session, 7);
    let movie = session.take_recorded_movie().expect("recording");
    assert_eq!(movie.frames.len(), 17);
    let resets: Vec<usize> = (0..17).filter(|&i| movie.frames[i].reset).collect();
    assert_eq!(resets, vec![10]);
    assert!(movie.to_fm2().contains("\n|1|....T...|||\n"));
    assert_eq!(movie.frames[9].buttons, Buttons::A | Buttons::RIGHT);

    let mut player = Session::new(rom(), Vec::new(), SessionConfig::default()).expect("loads");
    player.set_control(Control::Manual);
    player.play_movie(movie).expect("same ROM");
    run(&mut player, 17);
    assert!(player.ram() == session.ram());
    assert_eq!(player.ram()[common::PAD_BITS + 3], 1, "Start read back");
}

#[test]
fn a_movie_of_another_rom_is_refused() {
    let mut movie = Movie::new("other.nes", rom_md5(b"another", b"game"));
    movie.frames.push(MovieFrame::default());
    let mut session = open_cartridge(Vec::new());
    let error = session.play_movie(movie.clone()).expect_err("another ROM");
    assert!(
        matches!(error, SessionError::Movie(_)),
        "{error:?} is not a movie refusal"
    );
    assert!(error.to_string().contains("another ROM"), "{error}");
    assert_eq!(session.frame_number(), 0);
    assert_eq!(session.movie_playback(), None);

    // And once the console has run, no movie from power-on fits it.
    let rom = cartridge().expect("parses");
    movie.rom_md5 = rom_md5(&rom.prg, &rom.chr);
    session.run_frame().expect("frame");
    assert!(matches!(
        session.play_movie(movie),
        Err(SessionError::MovieNotAtPowerOn { frame: 1 })
    ));
}

#[test]
fn fm2_text_round_trips_and_files_are_never_overwritten() {
    let rom = cartridge().expect("parses");
    let mut movie = Movie::new(&rom.name, rom_md5(&rom.prg, &rom.chr));
    movie.frames = (0..300u16)
        .map(|i| MovieFrame {
            buttons: Buttons::from_bits((i * 37) as u8),
            reset: i % 97 == 5,
        })
        .collect();
    let text = movie.to_fm2();
    assert_eq!(Movie::parse(&text), Ok(movie.clone()));
    assert_eq!(text.lines().filter(|l| l.starts_with('|')).count(), 300);

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("a.fm2");
    movie_file::write(&path, &movie, false).expect("new file");
    assert_eq!(movie_file::read(&path).expect("reads"), movie);
    let mut other = movie.clone();
    other.frames.truncate(3);
    let error = movie_file::write(&path, &other, false).expect_err("exists");
    assert!(error.to_string().contains("--force"), "{error}");
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), text);
    movie_file::write(&path, &other, true).expect("forced");
    assert_eq!(movie_file::read(&path).expect("reads").frames.len(), 3);
}

#[test]
fn damaged_movies_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.fm2");
    for (bytes, want) in [
        (&b"just some text\n"[..], "not an fm2 movie"),
        (b"version 3\nromFilename a\n", "no romChecksum"),
        (
            b"version 3\nromFilename a\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\n|0|RL|||\n",
            "line 4",
        ),
        (&[0xFF, 0xFE, 0x00][..], "cannot read"),
    ] {
        std::fs::write(&path, bytes).expect("written");
        let error = movie_file::read(&path).expect_err("damaged");
        assert!(error.to_string().contains(want), "{error}");
        assert!(
            !matches!(error, MovieFileError::File(_)) || want == "cannot read",
            "{error:?}"
        );
    }
}

/// `jewelbot run --headless --frames 5 --movie PATH`.
fn play_five_frames(path: &Path) -> (i32, String, String) {
    jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "5",
        "--movie",
        path_text(path),
    ])
}

/// A refused movie is said in one line that gives the file and the reason once.
#[test]
fn refused_movies_are_one_clear_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good =
        "version 3\nromFilename a\nromChecksum base64:VYmON/RqC5V5eZa+cou4Og==\n|0|........|||\n";
    for (name, text, reason) in [
        ("other-rom.fm2", good.to_owned(), "recorded on another ROM"),
        (
            "damaged.fm2",
            good.replace("version 3", "version 3\nguid x\nguid y"),
            "`guid` is given twice",
        ),
        (
            "ram-option.fm2",
            good.replace("version 3", "version 3\nRAMInitOption 9"),
            "RAMInitOption 9",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        let (code, stdout, stderr) = play_five_frames(&path);
        assert_ne!(code, 0, "{name} played");
        assert!(stdout.is_empty(), "{name} ran: {stdout}");
        assert_eq!(stderr.trim().lines().count(), 1, "{name}: {stderr}");
        assert_eq!(stderr.matches(reason).count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: {stderr}");
    }
}

/// `ram --movie` shows any frame of a movie: the RAM the movie makes there.
#[test]
fn ram_inspects_a_frame_of_a_movie() {
    let (movie, _) = recorded_ai_play();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ai.fm2");
    movie_file::write(&path, &movie, false).expect("written");
    let frame = 1_034;
    let mut session = open_cartridge(Vec::new());
    session.set_control(Control::Manual);
    session.play_movie(movie).expect("same ROM");
    run(&mut session, frame);
    let want = jewelbot_host::inspector::hex_dump(session.ram());
    let (code, stdout, stderr) = jewelbot(&[
        "ram",
        "--ai",
        "off",
        "--movie",
        path_text(&path),
        "--frame",
        &frame.to_string(),
        "--hex",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with(&format!("frame {frame}\n")), "{stdout}");
    assert!(stdout.contains(&want), "another RAM:\n{stdout}");
}

/// `ram --movie` at a frame past the movie's end says so: the frames after it are not the
/// movie's.
#[test]
fn ram_past_a_movies_end_says_so() {
    let (movie, _) = recorded_ai_play();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ai.fm2");
    movie_file::write(&path, &movie, false).expect("written");
    let past = (FRAMES + 40).to_string();
    for (ai, with) in [("on", "the AI's buttons"), ("off", "no buttons")] {
        let (code, _, stderr) = jewelbot(&[
            "ram",
            "--ai",
            ai,
            "--movie",
            path_text(&path),
            "--frame",
            &past,
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains(&format!("the movie has {FRAMES} frames")) && stderr.contains(with),
            "{stderr}"
        );
    }
    let within = FRAMES.to_string();
    let (_, _, stderr) = jewelbot(&["ram", "--movie", path_text(&path), "--frame", &within]);
    assert!(!stderr.contains("past its end"), "{stderr}");
}

fn path_text(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

#[test]
fn the_command_line_records_plays_back_and_refuses() {
    let dir = tempfile::tempdir().expect("temp dir");
    let movie = dir.path().join("ai.fm2");
    let (movie_arg, frames) = (path_text(&movie), "600");
    let recorded = dir.path().join("recorded.state");
    let played = dir.path().join("played.state");

    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        frames,
        "--mode",
        "fast",
        "--record-movie",
        movie_arg,
        "--save-state",
        path_text(&recorded),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("movie of 600 frames recorded"), "{stderr}");
    let text = std::fs::read_to_string(&movie).expect("written");
    assert!(text.starts_with("version 3\n"));

    let (code, _, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        frames,
        "--ai",
        "off",
        "--movie",
        movie_arg,
        "--save-state",
        path_text(&played),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (mut a, mut b) = (open_cartridge(Vec::new()), open_cartridge(Vec::new()));
    a.load_state_file(&recorded).expect("state");
    b.load_state_file(&played).expect("state");
    assert_eq!(a.frame_number(), 600);
    assert!(a.ram() == b.ram(), "the played-back run ended elsewhere");

    // Never over the user's file without --force.
    let (code, stdout, stderr) = jewelbot(&[
        "run",
        "--headless",
        "--frames",
        "5",
        "--record-movie",
        movie_arg,
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(std::fs::read_to_string(&movie).expect("kept"), text);

    // Another ROM's movie and a damaged one stop the run before its first frame.
    let other = dir.path().join("other.fm2");
    let checksum = text
        .lines()
        .find(|l| l.starts_with("romChecksum"))
        .expect("a checksum line");
    std::fs::write(
        &other,
        text.replace(checksum, "romChecksum base64:VYmON/RqC5V5eZa+cou4Og=="),
    )
    .expect("written");
    let damaged = dir.path().join("damaged.fm2");
    std::fs::write(&damaged, text.replace("version 3", "version 9")).expect("written");
    for (path, want) in [(&other, "another ROM"), (&damaged, "fm2 version 9")] {
        let (code, stdout, stderr) = play_five_frames(path);
        assert_ne!(code, 0);
        assert!(stderr.contains(want), "{stderr}");
        assert!(stdout.is_empty(), "it ran: {stdout}");
    }
}
