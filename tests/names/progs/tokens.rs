// tokens.rs - a tokenizer and an evaluator: an iterator-driven lexer,
// a generic environment of Rc values in a HashMap, closures in map/collect,
// strings built in a loop. rustc -O -C debuginfo=1.
//
// Sites, known by construction: 3000 expressions "v{i%500} + {i} * v{..} -
// 3.5", each lexed into 2 numbers and 2 identifiers of at most 4
// characters, each a String whose first push allocates 8 bytes: 6000
// blocks of 8 bytes at the number's push and 6000 at the identifier's
// (Lexer::tokens); 500 bindings, each an Rc<f64> (two counts and the
// value, 24 bytes, Env::bind). The Rust runtime's own start-up memory
// (the main thread's name and stack-guard record, allocated before
// crate::main runs, under the C main rustc generates) is no site of the
// program's: runtime_only, ranked after them.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
enum Token { Num(f64), Ident(String), Op(char) }

struct Lexer<'a> { chars: std::iter::Peekable<std::str::Chars<'a>> }

impl<'a> Lexer<'a> {
    fn new(src: &'a str) -> Self { Lexer { chars: src.chars().peekable() } }
    fn tokens(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() { self.chars.next(); }
            else if c.is_ascii_digit() {
                let mut n = String::new();
                while let Some(&d) = self.chars.peek() { if d.is_ascii_digit() || d == '.' { n.push(d); self.chars.next(); } else { break; } }
                out.push(Token::Num(n.parse().unwrap()));
            } else if c.is_alphabetic() {
                let mut s = String::new();
                while let Some(&d) = self.chars.peek() { if d.is_alphanumeric() { s.push(d); self.chars.next(); } else { break; } }
                out.push(Token::Ident(s));
            } else { out.push(Token::Op(c)); self.chars.next(); }
        }
        out
    }
}

struct Env<T> { vars: HashMap<String, Rc<T>> }
impl<T> Env<T> {
    fn new() -> Self { Env { vars: HashMap::new() } }
    fn bind(&mut self, name: &str, value: T) { self.vars.insert(name.to_owned(), Rc::new(value)); }
    fn get(&self, name: &str) -> Option<Rc<T>> { self.vars.get(name).cloned() }
}

fn eval(tokens: &[Token], env: &Env<f64>) -> f64 {
    let mut acc = 0.0; let mut op = '+';
    for t in tokens {
        let v = match t { Token::Num(n) => *n, Token::Ident(s) => env.get(s).map(|v| *v).unwrap_or(0.0), Token::Op(c) => { op = *c; continue; } };
        acc = match op { '+' => acc + v, '-' => acc - v, '*' => acc * v, _ => acc };
    }
    acc
}

fn render(results: &[f64]) -> usize {
    let mut total = 0;
    for r in results {
        let mut line = String::new();
        for k in 0..8 { line.push_str(&format!("{:8.2}|", r * k as f64)); }
        total += line.len();
    }
    total
}

fn main() {
    let mut env = Env::new();
    for i in 0..500 { env.bind(&format!("v{}", i), i as f64 * 0.5); }
    let exprs: Vec<String> = (0..3000).map(|i| format!("v{} + {} * v{} - 3.5", i % 500, i, (i * 7) % 500)).collect();
    let results: Vec<f64> = exprs.iter().map(|e| eval(&Lexer::new(e).tokens(), &env)).collect();
    println!("{} {}", results.iter().sum::<f64>(), render(&results));
}
