//! The process's resident memory, from `/proc/self/status` (Linux); elsewhere, unknown.

/// Resident set size now and at its peak, in KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Resident {
    pub now_kib: u64,
    pub peak_kib: u64,
}

/// Reads `VmRSS` and `VmHWM`; `None` where the system does not say.
pub fn resident() -> Option<Resident> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse().ok())
    };
    Some(Resident {
        now_kib: field("VmRSS:")?,
        peak_kib: field("VmHWM:")?,
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_os = "linux")]
    #[test]
    fn linux_says_how_much_is_resident() {
        let resident = super::resident().expect("/proc/self/status");
        assert!(resident.now_kib > 0 && resident.peak_kib >= resident.now_kib);
    }
}
