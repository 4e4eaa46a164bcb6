// session_tree_fixed.rs - session_tree.rs with a Weak back-reference.
//
// The same server, but a Player refers back to its Session through a Weak:
// dropping the session's last handle frees the session, and with it its
// players.
//
// Verdict: no leak, no growth (one session's tree is live at a time).
// Twin of session_tree.rs, described below.
//
// A game server keeps each session as a tree: a Session owns its Players
// through Rc<RefCell<..>>, and every Player keeps an Rc back to its Session
// to reach the shared state. When a session ends the server drops its
// handle, but session and players still own each other: the reference
// counts never reach zero, and nothing is freed. Every session started
// leaks its whole tree (the session, its players, their names and their
// 256-byte score histories) for as long as the server runs.
//
// Verdict: leak on Session::add_player (the players and their buffers,
// allocated all through the run, all live at exit).
// Twin: session_tree_fixed.rs (players hold a Weak back-reference).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::cell::RefCell;
use std::rc::{Rc, Weak};

struct Player {
    name: String,
    scores: Vec<u32>,
    session: Weak<RefCell<Session>>,
}

struct Session {
    id: u32,
    players: Vec<Rc<RefCell<Player>>>,
}

impl Session {
    fn start(id: u32) -> Rc<RefCell<Session>> {
        Rc::new(RefCell::new(Session { id, players: Vec::new() }))
    }

    #[inline(never)]
    fn add_player(session: &Rc<RefCell<Session>>, name: &str) -> Rc<RefCell<Player>> {
        let player = Rc::new(RefCell::new(Player {
            name: name.to_string(),
            scores: Vec::with_capacity(64),
            session: Rc::downgrade(session),
        }));
        session.borrow_mut().players.push(Rc::clone(&player));
        player
    }
}

fn play(session: &Rc<RefCell<Session>>, rounds: u32) -> u64 {
    let players = session.borrow().players.clone();
    let mut total = 0u64;
    for round in 0..rounds {
        for (i, p) in players.iter().enumerate() {
            let mut p = p.borrow_mut();
            let score = (round * 7 + i as u32 * 13 + p.session.upgrade().unwrap().borrow().id) % 100;
            p.scores.push(score);
            total += score as u64 + p.name.len() as u64;
        }
    }
    total
}

fn main() {
    let mut total = 0u64;
    for id in 0..1500u32 {
        let session = Session::start(id);
        for seat in 0..4 {
            Session::add_player(&session, &format!("player-{}-{}", id, seat));
        }
        total += play(&session, 40);
        // The server forgets the session here: its tree is freed.
    }
    println!("session_tree_fixed: 1500 sessions, total score {}", total);
}
