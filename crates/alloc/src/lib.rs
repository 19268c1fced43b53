//! The global allocator of mooncake's command line, benchmarks and examples: mimalloc.
//!
//! The `mimalloc` crate passes every request to mimalloc's aligned entry points. Those take
//! their fast path only when the size class's free list has a block at hand; otherwise (every
//! time a page's free list must be refilled) a size that is not a power of two is allocated
//! with room for the alignment in a larger size class and then aligned by hand. A gradient
//! through a prepared cache allocated half its blocks that way. Ordinary alignments need none
//! of it: every mimalloc block of more than 8 bytes is 16-byte aligned (blocks of at most 8
//! bytes are 8-byte aligned), so requests whose alignment is at most 16 and at most their size
//! go to plain `mi_malloc`, as the system allocator's Rust wrapper does with `malloc`.
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;
//! let v: Vec<u64> = (0..100).collect();
//! assert_eq!(v.iter().sum::<u64>(), 4950);
//! ```

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;
use libmimalloc_sys as mi;

/// mimalloc, with plain (unaligned) calls where its blocks' own alignment suffices.
pub struct Allocator;

/// The alignment of every mimalloc block larger than 8 bytes (`MI_MAX_ALIGN_SIZE`).
const PLAIN_ALIGN: usize = 16;

/// Whether a block of `size` bytes from plain `mi_malloc` is aligned to `align`.
#[inline]
fn plain(size: usize, align: usize) -> bool {
    align <= PLAIN_ALIGN && align <= size
}

// SAFETY: every block comes from mimalloc and goes back to it (`mi_free` takes blocks of the
// plain and the aligned entry points alike); a block is aligned as its layout asks: plain calls
// are made only when mimalloc's own block alignment covers the request (see `plain`), all
// others go through the aligned entry points.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size and alignment (a null
        // result reports failure, as `GlobalAlloc` expects).
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator returned.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller passes a block this allocator returned with `layout`; the new
        // block keeps `layout.align()` (plain when mimalloc's alignment covers it).
        unsafe {
            if plain(new_size, layout.align()) {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of small sizes and alignments up to a page comes back aligned, keeps
    /// its contents through growing and shrinking, and is freed.
    #[test]
    fn blocks_are_aligned_and_keep_their_contents() {
        let a = Allocator;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [
                1, 3, 4, 7, 8, 9, 12, 16, 17, 24, 40, 48, 100, 1000, 5000, 70000,
            ] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero-size layout; each block is used within its size and
                // freed once with the layout it has.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    for k in 0..size {
                        *p.add(k) = k as u8;
                    }
                    let bigger = size * 3 + 5;
                    let q = a.realloc(p, layout, bigger);
                    assert_eq!(q as usize % align, 0, "realloc to {bigger}, align {align}");
                    for k in 0..size {
                        assert_eq!(*q.add(k), k as u8);
                    }
                    let smaller = size.div_ceil(2);
                    let grown = Layout::from_size_align(bigger, align).unwrap();
                    let r = a.realloc(q, grown, smaller);
                    assert_eq!(r as usize % align, 0, "realloc to {smaller}, align {align}");
                    for k in 0..smaller {
                        assert_eq!(*r.add(k), k as u8);
                    }
                    a.dealloc(r, Layout::from_size_align(smaller, align).unwrap());
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|k| *z.add(k) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
