// tile_filter.rs - an image filter that allocates a fresh scratch buffer
// for every tile.
//
// A photo tool sharpens a 4096 x 3072 image in 24,576 tiles of 512
// pixels. For each tile, sharpen_tile takes a zeroed scratch buffer
// (vec![0i16; 512].into_boxed_slice(): 1 KiB from alloc_zeroed), computes
// a Laplacian into it, adds it back to the tile and drops it. The buffer
// could be allocated once and reused for every tile; instead the
// allocator is asked for it 24,576 times, and each lives a few hundred
// instructions.
//
// Verdict: short-lived-churn on sharpen_tile (24,576 blocks, each freed
// right after its tile).
// SPDX-License-Identifier: GPL-3.0-or-later
const TILES: usize = 24_576;
const TILE_PIXELS: usize = 512;

fn sharpen_tile(tile: &mut [u8]) {
    let mut laplacian: Box<[i16]> = vec![0i16; TILE_PIXELS].into_boxed_slice();
    for x in 1..TILE_PIXELS - 1 {
        laplacian[x] = 2 * tile[x] as i16 - tile[x - 1] as i16 - tile[x + 1] as i16;
    }
    for x in 0..TILE_PIXELS {
        tile[x] = (tile[x] as i16 + laplacian[x] / 2).clamp(0, 255) as u8;
    }
}

fn main() {
    let mut image = vec![0u8; TILES * TILE_PIXELS];
    let mut state = 0x2545F491u32;
    for pixel in image.iter_mut() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        *pixel = (state >> 24) as u8;
    }
    for tile in image.chunks_mut(TILE_PIXELS) {
        sharpen_tile(tile);
    }
    let checksum = image.iter().fold(0u32, |acc, &p| acc.wrapping_mul(31).wrapping_add(p as u32));
    println!("tile_filter: {} tiles sharpened, checksum {:08x}", TILES, checksum);
}
