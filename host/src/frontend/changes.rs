//! Remembers when inspector values last changed, so the panel can light them up for a moment.

use jewelbot_plugin::{Inspection, Ram, RAM_SIZE};
use std::collections::HashMap;

/// How long a changed value stays lit, fading out, in milliseconds.
pub const HIGHLIGHT_MS: u64 = 800;

#[derive(Debug, Default)]
pub struct Changes {
    /// (plug-in, address, label) -> (last value, when it changed).
    fields: HashMap<(String, u16, String), (String, Option<u64>)>,
    bytes: Vec<Option<u64>>,
    last_ram: Option<Ram>,
}

impl Changes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Compares with what was seen before; the first look lights nothing.
    pub fn observe(&mut self, inspections: &[(String, Inspection)], ram: &Ram, now_ms: u64) {
        for (plugin, inspection) in inspections {
            for field in &inspection.fields {
                let key = (plugin.clone(), field.address, field.label.clone());
                match self.fields.get_mut(&key) {
                    Some((value, changed)) => {
                        if *value != field.value {
                            value.clone_from(&field.value);
                            *changed = Some(now_ms);
                        }
                    }
                    None => {
                        self.fields.insert(key, (field.value.clone(), None));
                    }
                }
            }
        }
        self.bytes.resize(RAM_SIZE, None);
        if let Some(last) = &self.last_ram {
            for (i, (a, b)) in last.iter().zip(ram.iter()).enumerate() {
                if a != b {
                    self.bytes[i] = Some(now_ms);
                }
            }
        }
        self.last_ram = Some(*ram);
    }

    /// 255 just after a change, fading to 0 after [`HIGHLIGHT_MS`].
    pub fn field_heat(&self, plugin: &str, address: u16, label: &str, now_ms: u64) -> u8 {
        let key = (plugin.to_owned(), address, label.to_owned());
        heat(self.fields.get(&key).and_then(|(_, t)| *t), now_ms)
    }

    pub fn byte_heat(&self, address: usize, now_ms: u64) -> u8 {
        heat(self.bytes.get(address).copied().flatten(), now_ms)
    }
}

fn heat(changed: Option<u64>, now_ms: u64) -> u8 {
    match changed {
        Some(t) if now_ms.saturating_sub(t) < HIGHLIGHT_MS => {
            (255 - now_ms.saturating_sub(t) * 255 / HIGHLIGHT_MS) as u8
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jewelbot_plugin::Field;

    fn inspection(value: &str) -> Vec<(String, Inspection)> {
        vec![(
            "p".into(),
            Inspection {
                fields: vec![Field {
                    address: 0x56,
                    width: 1,
                    label: "x".into(),
                    value: value.into(),
                    meaning: String::new(),
                }],
                panels: vec![],
            },
        )]
    }

    #[test]
    fn lights_changes_and_lets_them_fade() {
        let mut c = Changes::new();
        let mut ram = [0u8; RAM_SIZE];
        c.observe(&inspection("1"), &ram, 0);
        assert_eq!(c.field_heat("p", 0x56, "x", 0), 0);
        assert_eq!(c.byte_heat(0x56, 0), 0);
        ram[0x56] = 2;
        c.observe(&inspection("2"), &ram, 1000);
        assert_eq!(c.field_heat("p", 0x56, "x", 1000), 255);
        assert_eq!(c.byte_heat(0x56, 1000), 255);
        assert_eq!(c.byte_heat(0x57, 1000), 0);
        let half = c.field_heat("p", 0x56, "x", 1000 + HIGHLIGHT_MS / 2);
        assert!((120..=135).contains(&half), "{half}");
        assert_eq!(c.field_heat("p", 0x56, "x", 1000 + HIGHLIGHT_MS), 0);
        c.observe(&inspection("2"), &ram, 1100);
        assert_eq!(c.field_heat("p", 0x56, "x", 1100), 224);
    }
}
