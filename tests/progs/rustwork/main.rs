//! rustwork: a Rust program built with `rustc -C opt-level=2 -g` (unwinding
//! panics, the default), twice: with legacy symbol mangling and with v0
//! (Makefile.am), for comparing callprof with Callgrind and heapsnap with
//! Massif on Rust as rustc really leaves it.  What it exercises:
//!
//! - generics with several instantiations: `Stack<T>` for u64 and String,
//!   `largest::<T>` for u32, f64 and char, `shapes::total::<S>` for each
//!   shape;
//! - trait objects: `Vec<Box<dyn Shape>>`, with virtual calls in
//!   `shapes::area()`;
//! - closures passed to generic functions (`apply_n`) and stored
//!   (`Vec<Box<dyn Fn(u64) -> u64>>`), and an `FnMut` closure;
//! - panics caught with `std::panic::catch_unwind`, one in five calls of
//!   `checked_div()`, silenced by an empty panic hook so stderr stays
//!   clean;
//! - a HashMap with a fixed hasher (`BuildHasherDefault<Fnv>`, the FNV-1a
//!   hash written below), not the std's RandomState, whose random keys
//!   would change the counts from run to run;
//! - Vec and String allocations of many sizes;
//! - a recursive function (`partitions()`, two self calls per level);
//! - a module in a second file (shapes.rs: `rustwork::shapes`).
//!
//! Deterministic: no time, no randomness (a fixed linear congruential
//! sequence), nothing hashed by address.  Prints one line of checksums.

mod shapes;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::panic;

/// FNV-1a, 64 bits: a hasher with no random state.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
}

/// A generic container, instantiated for u64 and String.
struct Stack<T> {
    items: Vec<T>,
}

impl<T: Clone> Stack<T> {
    fn new() -> Self {
        Stack { items: Vec::new() }
    }
    fn push(&mut self, x: T) {
        self.items.push(x);
    }
    fn pop(&mut self) -> Option<T> {
        self.items.pop()
    }
    fn peek_n(&self, n: usize) -> Vec<T> {
        self.items.iter().rev().take(n).cloned().collect()
    }
}

#[inline(never)]
fn largest<T: PartialOrd + Copy>(xs: &[T]) -> T {
    let mut best = xs[0];
    for &x in xs {
        if x > best {
            best = x;
        }
    }
    best
}

/// Calls a closure n times: a generic function per closure type.
#[inline(never)]
fn apply_n<F: Fn(u64) -> u64>(f: F, n: u32, mut x: u64) -> u64 {
    for _ in 0..n {
        x = f(x);
    }
    x
}

/// Recursive, not tail-recursive: the number of partitions of n into
/// parts of at most max.
#[inline(never)]
fn partitions(n: u32, max: u32) -> u64 {
    if n == 0 {
        return 1;
    }
    if max == 0 {
        return 0;
    }
    if max > n {
        return partitions(n, n);
    }
    partitions(n - max, max) + partitions(n, max - 1)
}

/// Panics for one divisor in five (a zero): the caller catches it.
#[inline(never)]
fn checked_div(a: u64, b: u64) -> u64 {
    if b == 0 {
        panic!("division of {} by zero", a);
    }
    a / b
}

#[inline(never)]
fn word_counts(rng: &mut Lcg) -> FnvMap<String, u32> {
    const WORDS: [&str; 12] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
        "iota", "kappa", "lambda", "mu",
    ];
    let mut counts: FnvMap<String, u32> = FnvMap::default();
    for i in 0..6000 {
        let mut w = String::from(WORDS[rng.next() as usize % WORDS.len()]);
        if i % 3 == 0 {
            w.push_str(&(i % 50).to_string());
        }
        *counts.entry(w).or_insert(0) += 1;
    }
    counts
}

fn main() {
    // Quiet panics: the caught ones would each print a message otherwise.
    panic::set_hook(Box::new(|_| {}));
    let mut rng = Lcg(7);

    // The HashMap, with String keys made on the way.
    let counts = word_counts(&mut rng);
    let mut keys: Vec<&String> = counts.keys().collect();
    keys.sort();
    let most = counts.values().copied().max().unwrap_or(0);

    // Trait objects, and the generic total per shape type.
    let boxed: Vec<Box<dyn shapes::Shape>> =
        (0..3000).map(|i| shapes::make(rng.next(), (i % 37) as f64 + 1.0)).collect();
    let dyn_area = shapes::area(&boxed);
    let circles: Vec<shapes::Circle> =
        (0..500).map(|i| shapes::Circle { r: i as f64 }).collect();
    let rects: Vec<shapes::Rect> =
        (0..500).map(|i| shapes::Rect { w: i as f64, h: 2.0 }).collect();
    let tris: Vec<shapes::Tri> = (0..500).map(|i| shapes::Tri { side: i as f64 }).collect();
    let static_area = shapes::total(&circles) + shapes::total(&rects) + shapes::total(&tris);
    let names: usize = boxed.iter().map(|s| s.name().len()).sum();

    // Generics with several instantiations.
    let nums: Vec<u32> = (0..5000).map(|_| rng.next() % 100_000).collect();
    let floats: Vec<f64> = nums.iter().map(|&n| n as f64 / 7.0).collect();
    let chars: Vec<char> = "the quick brown fox jumps over the lazy dog".chars().collect();
    let mut s1: Stack<u64> = Stack::new();
    let mut s2: Stack<String> = Stack::new();
    for (i, &n) in nums.iter().enumerate() {
        s1.push(n as u64);
        if i % 4 == 0 {
            s2.push(format!("item-{}", n));
        }
        if i % 9 == 0 {
            s1.pop();
            s2.pop();
        }
    }
    let top: u64 = s1.peek_n(10).iter().sum();
    let top_len: usize = s2.peek_n(10).iter().map(|s| s.len()).sum();

    // Closures: passed to a generic function, stored, and FnMut.
    let k = 31u64;
    let a1 = apply_n(|x| x.wrapping_mul(k) ^ (x >> 7), 20000, 1);
    let a2 = apply_n(|x| x.rotate_left(5) + 1, 20000, 3);
    let stored: Vec<Box<dyn Fn(u64) -> u64>> = vec![
        Box::new(|x| x + 3),
        Box::new(move |x| x.wrapping_mul(k)),
        Box::new(|x| x ^ 0x5555),
    ];
    let mut y = 1u64;
    for i in 0..20000 {
        y = stored[i % stored.len()](y);
    }
    let mut calls = 0u32;
    let mut bump = |n: u32| calls += n;
    for i in 0..1000 {
        bump(i % 3);
    }

    // Panics, caught.
    let mut caught = 0u32;
    let mut quotients = 0u64;
    for i in 0..500u64 {
        match panic::catch_unwind(|| checked_div(1000 + i, i % 5)) {
            Ok(q) => quotients += q,
            Err(_) => caught += 1,
        }
    }

    // Recursion.
    let parts = partitions(45, 45);

    println!(
        "rustwork {} words (most {}, first {}), area {:.1} {:.1}, {} {} {} {} {} {} {} {} {} {} caught {} {} {}",
        keys.len(), most, keys[0], dyn_area, static_area, names,
        largest(&nums), largest(&floats), largest(&chars), top, top_len,
        a1, a2, y, calls, caught, quotients, parts
    );
}
