//! Where the lab's commands write: a default name never lands on a file the user has, and a
//! name the user gives replaces a file only with `--force`.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches};
use std::path::{Path, PathBuf};

use crate::cli::Command;

/// The lab's subcommands that write files, and so take `--force`.
pub const WRITERS: [&str; 3] = ["sim", "train", "learn"];

/// `--force` for a command that writes.
pub fn force_arg(command: clap::Command) -> clap::Command {
    command.arg(
        Arg::new("force")
            .long("force")
            .action(ArgAction::SetTrue)
            .help("Replace output files that exist"),
    )
}

/// Settles the outputs of `command` before it runs: a default file name that is taken becomes
/// the first free `NAME-2.EXT`, `NAME-3.EXT`, ...; a taken name the user gave is refused
/// without `--force`.
pub fn settle(command: &mut Command, matches: &ArgMatches) -> anyhow::Result<()> {
    let Some((name, sub)) = matches.subcommand() else {
        return Ok(());
    };
    let force = WRITERS.contains(&name) && sub.get_flag("force");
    // Only asked of the commands with an `out` argument (clap panics on unknown ids).
    let defaulted = || sub.value_source("out") == Some(ValueSource::DefaultValue);
    match command {
        Command::Train(args) => settle_file(&mut args.out, defaulted(), force),
        Command::Learn(args) => settle_file(&mut args.out, defaulted(), force),
        Command::Sim(args) => match &args.out {
            Some(dir) if !force => refuse_full_dir(dir),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

fn settle_file(out: &mut PathBuf, defaulted: bool, force: bool) -> anyhow::Result<()> {
    if defaulted {
        let fresh = jewelbot::files::fresh_path(out);
        if fresh != *out {
            eprintln!(
                "note: {} exists; writing to {} instead",
                out.display(),
                fresh.display()
            );
            *out = fresh;
        }
        return Ok(());
    }
    if !force && std::fs::symlink_metadata(&*out).is_ok() {
        anyhow::bail!("{} exists; pass --force to replace it", out.display());
    }
    Ok(())
}

/// `sim --out DIR` writes several files of fixed names into DIR: only into an empty or new one
/// without `--force`.
fn refuse_full_dir(dir: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) => anyhow::bail!(
            "{} is not empty and sim writes fixed file names into it; pass --force to replace \
             them or name a new directory",
            dir.display()
        ),
        Ok(false) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if dir.exists() => anyhow::bail!("{} is not a directory", dir.display()),
        Err(error) => Err(error.into()),
    }
}
