//! A fixed-size line buffer with cheap integer formatting: trace lines are built here on
//! every switch, so this avoids `core::fmt`'s generic machinery on the hot path.

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
