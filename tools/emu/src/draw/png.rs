//! A minimal PNG writer for looking at attachments: 8-bit RGBA, one IDAT of stored
//! (uncompressed) deflate blocks. Float attachments are clamped to [0, 1] and rounded;
//! R32_SFLOAT shows as grey.

use super::desc::ColorFormat;
use super::output::decode;

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn chunk(out: &mut Vec<u8>, ty: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(ty);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

/// The pixels of an attachment as 8-bit RGBA.
pub fn to_rgba8(f: ColorFormat, bytes: &[u8]) -> Vec<u8> {
    bytes
        .chunks(f.bytes())
        .flat_map(|px| {
            let mut c = decode(f, px);
            if f == ColorFormat::R32_SFLOAT {
                c = [c[0], c[0], c[0], 1.0];
            }
            c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
        })
        .collect()
}

/// A PNG file of `w`×`h` RGBA8 pixels.
pub fn encode(w: u32, h: u32, rgba: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity((w as usize * 4 + 1) * h as usize);
    for row in rgba.chunks(w as usize * 4) {
        raw.push(0);
        raw.extend(row);
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, b) in blocks.iter().enumerate() {
        z.push((i + 1 == blocks.len()) as u8);
        z.extend((b.len() as u16).to_le_bytes());
        z.extend((!(b.len() as u16)).to_le_bytes());
        z.extend(*b);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &x in &raw {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    z.extend((b << 16 | a).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(w.to_be_bytes());
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}
