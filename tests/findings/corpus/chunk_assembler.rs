// chunk_assembler.rs - reserve_exact before every append.
//
// A download client reassembles a 1 MB body from 2 KiB network chunks:
// append_chunk calls body.reserve_exact(chunk.len()) before each
// extend_from_slice, "to never over-allocate". reserve_exact defeats Vec's
// doubling: every chunk reallocates the body to exactly its new size, 500
// reallocs copying ~250 MB in all for a 1 MB result.
//
// Verdict: realloc-growth on append_chunk.
// Twin: chunk_assembler_reserved.rs (Vec::with_capacity(content_length)).
// SPDX-License-Identifier: GPL-3.0-or-later

#[inline(never)]
fn append_chunk(body: &mut Vec<u8>, chunk: &[u8]) {
    body.reserve_exact(chunk.len());
    body.extend_from_slice(chunk);
}

fn main() {
    let content_length = 500 * 2048;
    let mut body: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 2048];
    for n in 0..500usize {
        for (i, b) in chunk.iter_mut().enumerate() {
            *b = (n * 31 + i * 7) as u8;
        }
        append_chunk(&mut body, &chunk);
    }
    assert_eq!(body.len(), content_length);
    let sum = body.iter().fold(0u32, |s, &b| s.wrapping_mul(31).wrapping_add(b as u32));
    println!("chunk_assembler: {} bytes, hash {:08x}", body.len(), sum);
}
