//! A fixed-size line buffer with cheap integer formatting: trace lines are built here on
//! every switch, so this avoids `core::fmt`'s generic machinery on the hot path. A policy
//! writes into a trace line only through `Fields`: numbers under checked names, so it can
//! neither start another event nor pass off a field of the core's as its own.

pub const LINE_CAP: usize = 512;

pub struct Line {
    buf: [u8; LINE_CAP],
    len: usize,
}

impl Line {
    pub const fn new() -> Line {
        Line { buf: [0; LINE_CAP], len: 0 }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Appends what fits; a line that would overflow is cut (never an error on a hot path).
    pub fn push(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        bytes.iter().for_each(|&b| {
            self.byte(b);
        });
        self
    }

    pub fn byte(&mut self, b: u8) -> &mut Self {
        if self.len < LINE_CAP {
            self.buf[self.len] = b;
            self.len += 1;
        }
        self
    }

    pub fn num(&mut self, mut v: u64) -> &mut Self {
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while n > 0 {
            n -= 1;
            self.byte(digits[n]);
        }
        self
    }

    pub fn int(&mut self, v: i64) -> &mut Self {
        if v < 0 {
            self.byte(b'-');
        }
        self.num(v.unsigned_abs())
    }

    /// ` key=value` with a numeric value: the shape of every trace field.
    pub fn field(&mut self, key: &str, v: u64) -> &mut Self {
        self.byte(b' ').push(key).byte(b'=').num(v)
    }

    pub fn field_int(&mut self, key: &str, v: i64) -> &mut Self {
        self.byte(b' ').push(key).byte(b'=').int(v)
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.push(s);
        Ok(())
    }
}

/// The ` key=value` fields a policy adds to a trace event (`Scheduler::describe`). Values are
/// numbers; a name must be 1-16 lowercase letters, digits or `_` and none the core writes
/// itself. A field that breaks this is left out and the core stops the kernel, naming it.
pub struct Fields<'a> {
    line: &'a mut Line,
    refused: Option<[u8; 16]>,
}

/// The names the core's own fields use on the events a policy describes.
const CORE_KEYS: &[&str] = &["name", "class", "policy", "nice", "why", "ran", "cpu", "wait", "key", "value"];

impl<'a> Fields<'a> {
    pub fn new(line: &'a mut Line) -> Fields<'a> {
        Fields { line, refused: None }
    }

    pub fn field(&mut self, key: &str, v: u64) -> &mut Self {
        if self.accept(key) {
            self.line.field(key, v);
        }
        self
    }

    pub fn field_int(&mut self, key: &str, v: i64) -> &mut Self {
        if self.accept(key) {
            self.line.field_int(key, v);
        }
        self
    }

    fn accept(&mut self, key: &str) -> bool {
        let ok = (1..=16).contains(&key.len())
            && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            && !CORE_KEYS.contains(&key);
        if !ok && self.refused.is_none() {
            // Kept printable for the core's message: anything else becomes '?'.
            let mut name = [b' '; 16];
            for (d, s) in name.iter_mut().zip(key.bytes()) {
                *d = if s.is_ascii_graphic() { s } else { b'?' };
            }
            self.refused = Some(name);
        }
        ok
    }

    /// The first refused name (up to 16 bytes, padded with spaces), if any.
    pub fn refused(&self) -> Option<[u8; 16]> {
        self.refused
    }
}
