//! The fair class's run queues with cgroup v2 CPU groups, as Linux's `CONFIG_FAIR_GROUP_SCHED`
//! (`kernel/sched/fair.c`, 6.12): each group has, per run queue, its own queue (an instance of
//! the fair policy, Linux's `cfs_rq`) holding its tasks and child groups, and an entity (its
//! `sched_entity`, with its own vruntime, deadline and lag, as the policy keeps them) in its
//! parent's queue. Picking walks down from the root (`pick_next_task_fair`), CPU time is
//! charged at every level (`for_each_sched_entity`), the tick asks every level, and a wakeup
//! is judged between the two entities that share a queue (`find_matching_se`). A group's
//! entity weighs `calc_group_shares`: its shares times this queue's load over the group's load
//! on all queues, clamped to 2..=shares, so a group's share does not depend on how many tasks
//! it holds or how they are spread; ours takes the queues' current load (`load.weight`) where
//! Linux takes the larger of it and the PELT average. `cpu.max` is `bandwidth`.
//!
//! Without `cgroup=` every call goes straight to the root queue, as before groups existed.
//! The policy's instance for `rq=` is chosen by the class layer through `at` (a `Cell`, since
//! `describe` and `wakeup_preempts` are asked through a shared borrow).

use super::Policy;
use super::bandwidth::Bandwidth;
use super::cgroup::{self, Tree};
use super::Spec;
use crate::hart::MAX_HARTS;
use crate::task::{Class, MAX_TASKS, Tid};
use core::cell::Cell;
use runqueue_policies::Where;
use runqueue_policies::fair_policy::{self, wakeup_verdict};
use runqueue_sched_api::{self as api, Carry, Enqueue, Fields, MAX_GROUPS, Run, Scheduler};
use runqueue_settings::{ArgError, Settings};

/// `MIN_SHARES`: the least weight a group's entity has.
const MIN_SHARES: u64 = 2;

/// A queue's runnable children (Linux's `nr_running` split by where they are, and
/// `load.weight`).
#[derive(Clone, Copy)]
struct Load {
    queued: u32,
    running: u32,
    weight: u64,
}

/// A group's entity on one run queue.
#[derive(Clone, Copy)]
struct Entity {
    place: Where,
    /// Enqueued at least once (later enqueues are wakeups).
    born: bool,
    weight: u64,
    /// CPU time since it was picked (`sum_exec_runtime - prev_sum_exec_runtime`).
    stint: u64,
}

/// A task as the layer books it: where it is, on which queue, what it weighs.
#[derive(Clone, Copy)]
struct Member {
    place: Where,
    slot: u8,
    weight: u64,
}

/// Queue index: 0 is the root, `g + 1` group `g`'s.
type Node = usize;

pub struct Hierarchy {
    root: [Policy; MAX_HARTS],
    groups: [[Policy; MAX_HARTS]; MAX_GROUPS],
    books: Books,
    entity: [[Entity; MAX_HARTS]; MAX_GROUPS],
    queues: usize,
    perhart: bool,
    /// Seed 002's BVT: only group entities warp (`entity_is_task(se)` gets none).
    tasks_unwarped: bool,
    slot: Cell<usize>,
}

/// What the layer knows of the hierarchy, apart from the policies' queues (which a pick
/// borrows while it asks these).
struct Books {
    tree: Tree,
    load: [[Load; MAX_HARTS]; MAX_GROUPS + 1],
    member: [Member; MAX_TASKS],
    bandwidth: Bandwidth,
    /// Some task may not run on every hart of the shared queue: a pick must check that a
    /// group holds a task the hart may run.
    restricted: bool,
}

impl Hierarchy {
    pub const EMPTY: Hierarchy = Hierarchy {
        root: [const { Policy::UNSET }; MAX_HARTS],
        groups: [const { [const { Policy::UNSET }; MAX_HARTS] }; MAX_GROUPS],
        books: Books {
            tree: Tree::EMPTY,
            load: [[Load { queued: 0, running: 0, weight: 0 }; MAX_HARTS]; MAX_GROUPS + 1],
            member: [Member { place: Where::Off, slot: 0, weight: 0 }; MAX_TASKS],
            bandwidth: Bandwidth::NONE,
            restricted: false,
        },
        entity: [[Entity { place: Where::Off, born: false, weight: 0, stint: 0 }; MAX_HARTS]; MAX_GROUPS],
        queues: 1,
        perhart: false,
        tasks_unwarped: false,
        slot: Cell::new(0),
    };

    /// Builds the root's and every group's queues, one per run queue.
    pub fn configure(&mut self, s: &Settings<'static>, perhart: bool, run: &Run) -> Result<(), ArgError<'static>> {
        self.books.tree = Tree::parse(s)?;
        self.perhart = perhart;
        self.queues = if perhart { run.harts } else { 1 };
        let spec = Spec::chosen(s);
        for slot in &mut self.root[..self.queues] {
            *slot = spec.build(s, run)?;
        }
        if self.books.tree.is_empty() {
            return Ok(());
        }
        self.tasks_unwarped = self.root[0].view().warps_groups();
        if !s.get(&cgroup::GROUP_WARP).is_empty() && !self.tasks_unwarped {
            return Err(ArgError::Invalid("bvt.group_warp_us", "group warps are seed 002's BVT: use sched=bvt bvt.rules=patch"));
        }
        if !self.root[0].view().hierarchical() {
            return Err(ArgError::BadWord("cgroup", spec.name(), "this policy schedules tasks only; groups need sched=cfs, eevdf, bvt or lottery"));
        }
        for g in 0..self.books.tree.len {
            for slot in &mut self.groups[g][..self.queues] {
                *slot = spec.build(s, run)?;
                slot.get().queue_index(g + 1);
            }
            self.entity[g] = [Entity { place: Where::Off, born: false, weight: self.books.tree.groups[g].shares, stint: 0 }; MAX_HARTS];
        }
        self.books.bandwidth.configure(&self.books.tree);
        Ok(())
    }

    /// The queue `rq=` gives `slot` (the class layer's choice for the next call).
    pub fn at(&mut self, slot: usize) -> &mut Hierarchy {
        self.slot.set(slot);
        self
    }

    pub fn at_view(&self, slot: usize) -> &Hierarchy {
        self.slot.set(slot);
        self
    }

    /// `waiter` waits for a mutex `owner` holds, or no longer: the queue holding the waiter
    /// hears it, with the owner only if that queue holds it too (`Scheduler::lend`).
    pub fn lend(&mut self, waiter: Tid, owner: Option<Tid>) {
        let (slot, node) = (self.slot.get(), self.books.node_of(waiter));
        let owner = owner.filter(|&o| self.books.node_of(o) == node);
        self.queue(node, slot).lend(waiter, owner);
    }

    fn flat(&self) -> bool {
        self.books.tree.is_empty()
    }

    fn queue(&mut self, node: Node, slot: usize) -> &mut dyn Scheduler {
        if node == 0 { self.root[slot].get() } else { self.groups[node - 1][slot].get() }
    }

    fn queue_view(&self, node: Node, slot: usize) -> &dyn Scheduler {
        if node == 0 { self.root[slot].view() } else { self.groups[node - 1][slot].view() }
    }



    fn depth(&self, node: Node) -> usize {
        if node == 0 { 0 } else { 1 + self.depth(self.books.parent(node - 1)) }
    }

    /// What the policy sees of a task (seed 002's BVT: no warp for tasks).
    fn task_view(&self, task: &api::Task) -> api::Task {
        if self.tasks_unwarped { api::Task { warp_ns: 0, ..*task } } else { *task }
    }

    /// What the policy sees of group `g`'s entity on `slot`.
    fn group_view(&self, g: usize, slot: usize) -> api::Task {
        api::Task {
            tid: MAX_TASKS + g,
            nice: 0,
            policy: api::FairPolicy::Normal,
            class: Class::Fair,
            warp_ns: self.books.tree.groups[g].warp_ns,
            tickets: 1,
            slice_ns: 0,
            allowed: u32::MAX,
            burst_ns: 0,
            stint_ns: self.entity[g][slot].stint,
            hart: None,
        }
    }

    /// A child of `node` moved between places with `weight`: the queue's counts follow.
    fn account(&mut self, node: Node, slot: usize, weight: u64, from: Where, to: Where) {
        let l = &mut self.books.load[node][slot];
        match from {
            Where::Queued => l.queued -= 1,
            Where::Running => l.running -= 1,
            Where::Off => l.weight += weight,
        }
        match to {
            Where::Queued => l.queued += 1,
            Where::Running => l.running += 1,
            Where::Off => l.weight -= weight,
        }
    }

    /// Where group `g`'s entity belongs on `slot`: out while throttled or empty; running while a
    /// task below it runs there (with one shared queue, queued while it has more to offer).
    fn wanted(&self, g: usize, slot: usize) -> Where {
        let l = self.books.load[g + 1][slot];
        if self.books.bandwidth.throttled(g, slot) || l.queued + l.running == 0 {
            Where::Off
        } else if l.running > 0 && (self.perhart || l.queued == 0) {
            Where::Running
        } else {
            Where::Queued
        }
    }

    /// `calc_group_shares` for each queue of `g`, and `reweight_entity` where it changed.
    fn reweight(&mut self, g: usize) {
        let shares = self.books.tree.groups[g].shares;
        let total: u64 = (0..self.queues).map(|s| self.books.load[g + 1][s].weight).sum();
        let parent = self.books.parent(g);
        for slot in 0..self.queues {
            let load = self.books.load[g + 1][slot].weight;
            let weight = if total == 0 { shares } else { (shares * load / total).clamp(MIN_SHARES, shares) };
            let e = self.entity[g][slot];
            if weight == e.weight {
                continue;
            }
            if e.born {
                self.queue(parent, slot).reweight(MAX_TASKS + g, weight);
            }
            if e.place != Where::Off {
                let l = &mut self.books.load[parent][slot];
                l.weight = l.weight + weight - e.weight;
            }
            self.entity[g][slot].weight = weight;
        }
    }

    /// Brings the entities of `node`'s group and its ancestors on `slot` to where they belong
    /// after a change below them, reweighting on the way up.
    fn settle(&mut self, mut node: Node, slot: usize, now: u64) {
        while node != 0 {
            let g = node - 1;
            self.reweight(g);
            self.place(g, slot, now);
            node = self.books.parent(g);
        }
    }

    fn place(&mut self, g: usize, slot: usize, now: u64) {
        let (want, e) = (self.wanted(g, slot), self.entity[g][slot]);
        let (parent, view) = (self.books.parent(g), self.group_view(g, slot));
        let to = match (e.place, want) {
            (a, b) if a == b => return,
            // Only a pick makes an entity run.
            (Where::Queued, Where::Running) => return,
            (Where::Off, _) => {
                let why = if e.born { Enqueue::Wakeup } else { Enqueue::New };
                let q = self.queue(parent, slot);
                q.enqueue(&view, why, now);
                if !e.born {
                    q.reweight(view.tid, e.weight);
                }
                Where::Queued
            }
            (_, Where::Off) => {
                self.queue(parent, slot).block(&view, now);
                Where::Off
            }
            (_, _) => {
                self.queue(parent, slot).enqueue(&view, Enqueue::Preempted, now);
                Where::Queued
            }
        };
        self.account(parent, slot, e.weight, e.place, to);
        self.entity[g][slot] = Entity { place: to, born: true, ..e };
    }




    /// The period timers: unthrottled groups' entities go back in their parents' queues.
    fn roll(&mut self, now: u64) {
        let mut back = [[false; MAX_HARTS]; MAX_GROUPS];
        self.books.bandwidth.roll(now, self.queues, |g, slot| back[g][slot] = true);
        for g in 0..MAX_GROUPS {
            for slot in 0..MAX_HARTS {
                if back[g][slot] {
                    crate::trace::event(now, "unthrottle", 0, |l| {
                        l.field("cg", g as u64 + 1).field("rq", slot as u64);
                    });
                    self.settle(g + 1, slot, now);
                }
            }
        }
    }

    /// A task leaves its queue: asleep, blocked (`block`) or gone (`exit`).
    fn leave(&mut self, task: &api::Task, now: u64, exit: bool) {
        let slot = self.slot.get();
        let node = self.books.node_of(task.tid);
        let view = self.task_view(task);
        let queue = self.queue(node, slot);
        if exit { queue.exit(&view) } else { queue.block(&view, now) }
        if self.flat() {
            return;
        }
        let m = self.books.member[task.tid];
        if m.place != Where::Off {
            self.account(node, slot, m.weight, m.place, Where::Off);
        }
        self.books.member[task.tid].place = Where::Off;
        self.settle(node, slot, now);
    }

    /// Whether `cpu.max` is in use (the class layer then asks `next_event`).
    pub fn timed(&self) -> bool {
        !self.flat() && self.books.bandwidth.any()
    }

    /// The next period timer of a group throttled on `slot`.
    pub fn next_event(&mut self, slot: usize, now: u64) -> Option<u64> {
        self.roll(now);
        self.books.bandwidth.next_refill(slot)
    }

    /// At a timer event: refill what is due; the running task goes if its group is throttled.
    pub fn recheck(&mut self, current: &api::Task, now: u64) -> bool {
        if self.flat() {
            return false;
        }
        self.roll(now);
        self.books.throttled_above(current.tid, self.slot.get())
    }
}

impl Books {
    fn node_of(&self, tid: Tid) -> Node {
        self.tree.group_of(tid).map_or(0, |g| g + 1)
    }

    fn parent(&self, g: usize) -> Node {
        self.tree.groups[g].parent.map_or(0, |p| p + 1)
    }

    /// Whether a task below `g` waits on `slot` that `allowed` lets run (with one shared queue
    /// and affinities, a group may hold only tasks this hart may not run).
    fn offers(&self, g: usize, slot: usize, allowed: &dyn Fn(Tid) -> bool) -> bool {
        self.load[g + 1][slot].queued > 0
            && (!self.restricted
                || (1..MAX_TASKS).any(|t| {
                    let m = self.member[t];
                    m.place == Where::Queued && m.slot as usize == slot && allowed(t) && self.reachable(t, g, slot)
                }))
    }

    /// `t` is in `g` or below it, with no throttled group between.
    fn reachable(&self, t: Tid, g: usize, slot: usize) -> bool {
        let mut node = self.node_of(t);
        while node != 0 {
            if self.bandwidth.throttled(node - 1, slot) {
                return false;
            }
            if node - 1 == g {
                return true;
            }
            node = self.parent(node - 1);
        }
        false
    }

    /// Some group above task `tid` is throttled on `slot`.
    fn throttled_above(&self, tid: Tid, slot: usize) -> bool {
        let mut node = self.node_of(tid);
        while node != 0 {
            if self.bandwidth.throttled(node - 1, slot) {
                return true;
            }
            node = self.parent(node - 1);
        }
        false
    }
}

impl Scheduler for Hierarchy {
    fn enqueue(&mut self, task: &api::Task, why: Enqueue, now: u64) {
        let slot = self.slot.get();
        if self.flat() {
            return self.root[slot].get().enqueue(task, why, now);
        }
        let (tid, node) = (task.tid, self.books.node_of(task.tid));
        if why == Enqueue::New {
            self.books.member[tid].weight = fair_policy::weight(task.nice, task.policy);
            self.books.restricted |= !self.perhart && task.allowed.count_ones() < MAX_HARTS as u32 && task.allowed != u32::MAX;
        }
        let view = self.task_view(task);
        self.queue(node, slot).enqueue(&view, why, now);
        let m = self.books.member[tid];
        self.account(node, slot, m.weight, if m.slot as usize == slot { m.place } else { Where::Off }, Where::Queued);
        self.books.member[tid] = Member { place: Where::Queued, slot: slot as u8, ..m };
        self.settle(node, slot, now);
    }

    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let slot = self.slot.get();
        if self.flat() {
            return self.root[slot].get().pick_next(hart, now, allowed);
        }
        self.roll(now);
        let mut node = 0;
        loop {
            let Hierarchy { root, groups, books, .. } = self;
            let ok = |id: Tid| if id < MAX_TASKS { allowed(id) } else { books.offers(id - MAX_TASKS, slot, allowed) };
            let queue = if node == 0 { root[slot].get() } else { groups[node - 1][slot].get() };
            let Some(id) = queue.pick_next(hart, now, &ok) else {
                // Only if the policy passed over what `offers` promised: put the entity back.
                self.settle(node, slot, now);
                return None;
            };
            if id < MAX_TASKS {
                let m = self.books.member[id];
                self.account(node, slot, m.weight, Where::Queued, Where::Running);
                self.books.member[id].place = Where::Running;
                self.settle(node, slot, now);
                return Some(id);
            }
            let g = id - MAX_TASKS;
            let e = self.entity[g][slot];
            self.account(node, slot, e.weight, e.place, Where::Running);
            self.entity[g][slot] = Entity { place: Where::Running, stint: 0, ..e };
            node = g + 1;
        }
    }

    fn charge(&mut self, task: &api::Task, ran_ns: u64, now: u64) {
        let slot = self.slot.get();
        if self.flat() {
            return self.root[slot].get().charge(task, ran_ns, now);
        }
        let mut node = self.books.node_of(task.tid);
        let view = self.task_view(task);
        self.queue(node, slot).charge(&view, ran_ns, now);
        while node != 0 {
            let g = node - 1;
            self.entity[g][slot].stint += ran_ns;
            let view = self.group_view(g, slot);
            let parent = self.books.parent(g);
            self.queue(parent, slot).charge(&view, ran_ns, now);
            if self.books.bandwidth.account(g, slot, ran_ns) {
                crate::trace::event(now, "throttle", 0, |l| {
                    l.field("cg", g as u64 + 1).field("rq", slot as u64);
                });
                self.settle(node, slot, now);
            }
            node = parent;
        }
    }

    /// `entity_tick` at every level, and a throttled group's task goes.
    fn tick(&mut self, current: &api::Task, now: u64) -> bool {
        let slot = self.slot.get();
        if self.flat() {
            return self.root[slot].get().tick(current, now);
        }
        self.roll(now);
        let mut node = self.books.node_of(current.tid);
        let view = self.task_view(current);
        let mut preempt = self.queue(node, slot).tick(&view, now);
        while node != 0 {
            let (g, view) = (node - 1, self.group_view(node - 1, slot));
            node = self.books.parent(g);
            preempt |= self.queue(node, slot).tick(&view, now);
        }
        preempt || self.books.throttled_above(current.tid, slot)
    }

    /// `check_preempt_wakeup_fair`: the two tasks' entities that share a queue decide.
    fn wakeup_preempts(&self, current: &api::Task, woken: &api::Task) -> bool {
        let slot = self.slot.get();
        if self.flat() {
            return self.root[slot].view().wakeup_preempts(current, woken);
        }
        if self.books.throttled_above(woken.tid, slot) {
            return false;
        }
        // The tasks' own policies first, as Linux looks at `p->policy` before it matches
        // entities (group entities are all SCHED_NORMAL here: there is no `cpu.idle`).
        if let Some(verdict) = wakeup_verdict(current, woken) {
            return verdict;
        }
        let (mut c, mut w) = ((self.books.node_of(current.tid), self.task_view(current)), (self.books.node_of(woken.tid), self.task_view(woken)));
        let up = |(node, _): (Node, api::Task)| (self.books.parent(node - 1), self.group_view(node - 1, slot));
        while self.depth(c.0) > self.depth(w.0) {
            c = up(c);
        }
        while self.depth(w.0) > self.depth(c.0) {
            w = up(w);
        }
        while c.0 != w.0 {
            (c, w) = (up(c), up(w));
        }
        self.queue_view(c.0, slot).wakeup_preempts(&c.1, &w.1)
    }

    fn block(&mut self, task: &api::Task, now: u64) {
        self.leave(task, now, false);
    }

    fn exit(&mut self, task: &api::Task) {
        self.leave(task, 0, true);
    }

    fn fair_policies(&self) -> bool {
        self.root[0].view().fair_policies()
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let slot = self.slot.get();
        self.queue_view(self.books.node_of(tid), slot).describe(tid, out);
        if let Some(g) = self.books.tree.group_of(tid) {
            out.field("cg", g as u64 + 1);
        }
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        self.queue_view(self.books.node_of(tid), self.slot.get()).milestone(tid, out);
    }

    fn delayed(&self, tid: Tid) -> bool {
        self.queue_view(self.books.node_of(tid), self.slot.get()).delayed(tid)
    }

    fn detach(&mut self, task: &api::Task, queued: bool, now: u64) -> Option<Carry> {
        let (slot, node) = (self.slot.get(), self.books.node_of(task.tid));
        let view = self.task_view(task);
        let carry = self.queue(node, slot).detach(&view, queued, now)?;
        if !self.flat() {
            let m = self.books.member[task.tid];
            if m.place != Where::Off {
                self.account(node, slot, m.weight, m.place, Where::Off);
            }
            self.books.member[task.tid].place = Where::Off;
            self.settle(node, slot, now);
        }
        Some(carry)
    }

    fn attach(&mut self, task: &api::Task, carry: Carry, queued: bool, now: u64) {
        let (slot, node) = (self.slot.get(), self.books.node_of(task.tid));
        let view = self.task_view(task);
        self.queue(node, slot).attach(&view, carry, queued, now);
        if !self.flat() {
            let place = if queued { Where::Queued } else { Where::Off };
            if queued {
                self.account(node, slot, self.books.member[task.tid].weight, Where::Off, place);
            }
            self.books.member[task.tid] = Member { place, slot: slot as u8, ..self.books.member[task.tid] };
            self.settle(node, slot, now);
        }
    }
}
