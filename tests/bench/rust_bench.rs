// rust_bench: the benchmark's Rust workload (issue 17), a program written
// the way ordinary Rust is, for tests/bench/run to time under our tools
// and Valgrind's next to the real programs (perl, sqlite3, python3, xz)
// and the C++ workload (cxx_bench.cpp).
//
//     rust_bench [ROUNDS]
//
// Built for `make bench` only, when configure found a rustc, with
// `rustc --edition 2021 -C opt-level=2 -g` as release builds with debug
// information are.  Each round does what typical Rust code spends its
// time on: counting words in a HashMap<String, u64> and a BTreeMap
// (inserts through the entry API, then lookups of words present and
// absent), dynamic dispatch through a Vec<Box<dyn Shape>>, sort_by and
// sort_by_key with closures on records holding Strings, iterator chains
// (map, filter, fold, zip), Strings built with format!, and a recursive
// enum tree built, evaluated and dropped.  So it allocates many small
// blocks of many sizes and makes many short calls, inlined and not.
// Deterministic: its own pseudo-random generator with a fixed seed, and
// the HashMap uses a hasher with fixed keys (std's DefaultHasher, SipHash
// with zero keys) rather than RandomState, so that every run does the
// same work.  Prints one checksum line.  About 0.4 s natively with the
// default number of rounds.
//
// Copyright (C) 2026 The heapsnap/callprof developers.
// SPDX-License-Identifier: GPL-2.0-or-later

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

type FixedHashMap<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

/// A linear congruential generator, so that the work is the same in every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A word of 3 to 10 lower-case letters: the same index gives the same word.
fn word(index: u32) -> String {
    let mut x = index.wrapping_mul(2654435761).wrapping_add(12345);
    let len = 3 + (index % 8) as usize;
    let mut w = String::with_capacity(len);
    for i in 0..len {
        w.push((b'a' + (x % 26) as u8) as char);
        x = (x / 26).wrapping_add(x << 7).wrapping_add(i as u32);
    }
    w
}

fn fnv(s: &str) -> u64 {
    s.bytes()
        .fold(1469598103934665603u64, |h, c| (h ^ c as u64).wrapping_mul(1099511628211))
}

/// Word counts in a hash table: inserts, then lookups.
fn hashed_counts(rng: &mut Rng, n: u32, vocab: u32) -> u64 {
    let mut counts: FixedHashMap<String, u64> = FixedHashMap::default();
    for i in 0..n {
        *counts.entry(word(rng.below(vocab))).or_insert(0) += 1 + (i & 3) as u64;
    }
    let mut sum = counts.len() as u64;
    for _ in 0..n {
        let w = word(rng.below(vocab * 2));
        match counts.get(&w) {
            Some(c) => sum = sum.wrapping_add(*c),
            None => {
                counts.insert(word(rng.below(vocab * 4)), 1);
            }
        }
    }
    sum + counts.len() as u64
}

/// The same in an ordered map, then a range of it, in order.
fn ordered_counts(rng: &mut Rng, n: u32, vocab: u32) -> u64 {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for _ in 0..n {
        *counts.entry(word(rng.below(vocab))).or_default() += 1;
    }
    let mut sum = counts.len() as u64;
    for i in 0..n {
        if let Some(c) = counts.get(word(rng.below(vocab * 2)).as_str()) {
            sum = sum.wrapping_add(c * (i & 7) as u64);
        }
    }
    let range: u64 = counts
        .range("k".to_string().."n".to_string())
        .map(|(k, v)| fnv(k) % 1000 + v)
        .sum();
    sum.wrapping_add(range)
}

/// Shapes behind a trait: calls through a vtable.
trait Shape {
    fn area(&self) -> f64;
    fn scale(&mut self, f: f64);
    fn name(&self) -> &'static str;
}

struct Circle {
    r: f64,
}
struct Rect {
    w: f64,
    h: f64,
}
struct Triangle {
    b: f64,
    h: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
    fn scale(&mut self, f: f64) {
        self.r *= f;
    }
    fn name(&self) -> &'static str {
        "circle"
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
    fn scale(&mut self, f: f64) {
        self.w *= f;
        self.h *= f;
    }
    fn name(&self) -> &'static str {
        "rect"
    }
}

impl Shape for Triangle {
    fn area(&self) -> f64 {
        0.5 * self.b * self.h
    }
    fn scale(&mut self, f: f64) {
        self.b *= f;
        self.h *= f;
    }
    fn name(&self) -> &'static str {
        "triangle"
    }
}

fn shapes(rng: &mut Rng, n: usize, passes: u32) -> u64 {
    let mut v: Vec<Box<dyn Shape>> = Vec::with_capacity(n);
    for _ in 0..n {
        let a = 1.0 + rng.below(100) as f64 / 10.0;
        let b = 1.0 + rng.below(100) as f64 / 10.0;
        v.push(match rng.below(3) {
            0 => Box::new(Circle { r: a }),
            1 => Box::new(Rect { w: a, h: b }),
            _ => Box::new(Triangle { b: a, h: b }),
        });
    }
    let mut total = 0.0;
    let mut names = 0u64;
    for p in 0..passes {
        let f = if p & 1 == 1 { 0.5 } else { 2.0 };
        for s in v.iter_mut() {
            s.scale(f);
            total += s.area();
            names += s.name().len() as u64;
        }
    }
    total as u64 + names
}

/// Records sorted with closures: by score then name, then by name length.
struct Record {
    name: String,
    score: u32,
    id: u64,
}

fn sorted_records(rng: &mut Rng, n: u64) -> u64 {
    let mut recs: Vec<Record> = (0..n)
        .map(|id| Record { name: word(rng.below(5000)), score: rng.below(100), id })
        .collect();
    recs.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.name.cmp(&b.name)));
    let sum = recs
        .iter()
        .step_by(97)
        .fold(0u64, |s, r| s.wrapping_mul(31).wrapping_add(r.id));
    recs.sort_by_key(|r| r.name.len());
    // Iterators: adjacent pairs, filtered, zipped with their position.
    let pairs: u64 = recs
        .windows(2)
        .zip(0u64..)
        .filter(|(w, _)| w[0].score < w[1].score)
        .map(|(w, i)| (w[1].score - w[0].score) as u64 ^ (i & 15))
        .sum();
    sum.wrapping_add(pairs)
        .wrapping_add(recs[0].id * 7 + recs[recs.len() - 1].id)
}

/// Lines of text built with format!, as a report or a log would be.
fn strings(rng: &mut Rng, n: u32) -> u64 {
    let mut text = String::new();
    let mut sum = 0u64;
    for i in 0..n {
        let mut line = format!("item {}: {} = {}", i, word(rng.below(1000)), rng.below(1000000));
        if i % 3 == 0 {
            line = format!("[{}]", line);
        }
        text.push_str(&line);
        text.push('\n');
        if text.len() > 4096 {
            sum = sum.wrapping_add(fnv(&text));
            text.clear();
        }
    }
    sum.wrapping_add(fnv(&text))
}

/// An expression tree: a recursive enum, built, evaluated and dropped.
enum Expr {
    Num(u64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

fn build(rng: &mut Rng, depth: u32) -> Expr {
    if depth == 0 {
        return Expr::Num(rng.below(1000) as u64);
    }
    match rng.below(8) {
        0 => Expr::Neg(Box::new(build(rng, depth - 1))),
        1 | 2 => Expr::Mul(Box::new(build(rng, depth - 1)), Box::new(build(rng, depth - 1))),
        3 => Expr::Num(rng.below(1000) as u64),
        _ => Expr::Add(Box::new(build(rng, depth - 1)), Box::new(build(rng, depth - 1))),
    }
}

fn eval(e: &Expr) -> u64 {
    match e {
        Expr::Num(n) => *n,
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Mul(a, b) => eval(a).wrapping_mul(eval(b) | 1),
        Expr::Neg(a) => eval(a).wrapping_neg(),
    }
}

fn count(e: &Expr) -> u64 {
    match e {
        Expr::Num(_) => 1,
        Expr::Add(a, b) | Expr::Mul(a, b) => 1 + count(a) + count(b),
        Expr::Neg(a) => 1 + count(a),
    }
}

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let mut sum = 0u64;
    for _ in 0..rounds {
        sum = sum.wrapping_add(hashed_counts(&mut rng, 30000, 6000));
        sum = sum.wrapping_add(ordered_counts(&mut rng, 20000, 4000));
        sum = sum.wrapping_add(shapes(&mut rng, 5000, 8));
        sum = sum.wrapping_add(sorted_records(&mut rng, 20000));
        sum = sum.wrapping_add(strings(&mut rng, 20000));
        let tree = build(&mut rng, 15);
        sum = sum.wrapping_add(eval(&tree)).wrapping_add(count(&tree));
    }
    println!("rust_bench: {} rounds, checksum {:016x}", rounds, sum);
}
