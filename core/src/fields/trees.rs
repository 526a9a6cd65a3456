//! A native evaluator for the one model family the engine ships: a binary gradient-boosted tree
//! ensemble exported by skl2onnx as ONE `TreeEnsembleClassifier` node (domain `ai.onnx.ml`),
//! optionally followed by `Identity` nodes up to the `probabilities` output. Running it here
//! spares every process onnxruntime's start-up (its environment registers every ONNX schema);
//! any other model still runs through onnxruntime ([`super::model`]).
//!
//! The ONNX protobuf is read by a small reader of just the messages and fields needed (unknown
//! fields are skipped by wire type). [`TreeEnsemble::from_onnx`] answers:
//! - `Ok(Some(_))`: the supported shape, every index checked;
//! - `Ok(None)`: a well-formed model of another shape (another operator, more nodes, another
//!   post-transform, multi-class...): onnxruntime runs it;
//! - `Err(Error::Model)`: bytes that are not a protobuf, or a tree ensemble of the supported shape
//!   with a broken structure (an id out of range, a cycle, a leaf without weight...).
//!
//! Evaluation follows onnxruntime's `TreeEnsembleClassifier` (tree_ensemble_common.h,
//! tree_ensemble_aggregator.h, ml_common.h; the outputs of onnxruntime 1.31.1, which the tests
//! compare) for the binary case with one weight column, in `f32` like it: a tree's root is its
//! first listed node; a row's score is the sum, tree by tree in listed order, of the class-0
//! weights of the leaves it reaches; then by `base_values`:
//! - one value `b` (skl2onnx's form) or none (`b = 0`): `s = score + b`; the probabilities are
//!   `[σ(-s), σ(s)]` for `LOGISTIC` (σ as onnxruntime's `ComputeLogistic`); for `NONE`,
//!   `[1 - s, s]` if every class weight is >= 0, else `[-s, s]`;
//! - two values `[b0, b1]`: onnxruntime treats the model as two classes of which the second has
//!   no weight (and gets no base value): `[t(score + b0), t(0)]`, `t` the post-transform.

use crate::error::{Error, Result};

/// Node modes (ONNX-ML `nodes_modes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Leq,
    Lt,
    Gte,
    Gt,
    Eq,
    Neq,
    Leaf,
}

impl Mode {
    fn parse(s: &[u8]) -> Option<Self> {
        Some(match s {
            b"BRANCH_LEQ" => Mode::Leq,
            b"BRANCH_LT" => Mode::Lt,
            b"BRANCH_GTE" => Mode::Gte,
            b"BRANCH_GT" => Mode::Gt,
            b"BRANCH_EQ" => Mode::Eq,
            b"BRANCH_NEQ" => Mode::Neq,
            b"LEAF" => Mode::Leaf,
            _ => return None,
        })
    }
}

/// One node, flat: a branch compares `x[feature]` with `value` and goes to `a` (true) or `b`
/// (false), both indexes into the node array; a leaf's weights are `weights[a..a + b]`.
#[derive(Debug, Clone, Copy)]
struct Node {
    mode: Mode,
    missing_true: bool,
    feature: u32,
    value: f32,
    a: u32,
    b: u32,
}

/// The final step from a row's summed score to its two probabilities.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Finish {
    /// One base value (or none: 0): `[σ(-s), σ(s)]`, or without the transform `[1 - s, s]`
    /// (every weight >= 0) or `[-s, s]`.
    One {
        base: f32,
        logistic: bool,
        all_positive: bool,
    },
    /// Two base values: `[t(score + b0), t(0)]`.
    Two { b0: f32, logistic: bool },
}

/// A checked binary tree ensemble, ready to evaluate.
#[derive(Debug, Clone)]
pub struct TreeEnsemble {
    nodes: Vec<Node>,
    weights: Vec<f32>,
    roots: Vec<u32>,
    features: usize,
    finish: Finish,
}

/// onnxruntime's `ComputeLogistic` (f32).
fn logistic(x: f32) -> f32 {
    let v = 1.0 / (1.0 + (-x.abs()).exp());
    if x < 0.0 { 1.0 - v } else { v }
}

fn bad(what: impl std::fmt::Display) -> Error {
    Error::Model(format!("the field model (tree ensemble): {what}"))
}

impl TreeEnsemble {
    /// Reads an ONNX model; see the module documentation for the three answers. `features` is
    /// the row length the engine feeds (the input must be `float[N, features]`, its second
    /// dimension given or left open).
    pub fn from_onnx(bytes: &[u8], features: usize) -> Result<Option<Self>> {
        let model = pb::Model::parse(bytes)?;
        let Some(graph) = model.graph else {
            return Err(bad("the model has no graph"));
        };
        let Some(op) = supported_graph(&graph, features) else {
            return Ok(None);
        };
        let Some(attrs) = Attributes::collect(&op.attributes) else {
            return Ok(None);
        };
        attrs.build(features)
    }

    /// Number of features a row has.
    pub fn features(&self) -> usize {
        self.features
    }

    /// The probabilities `[p0, p1]` of each row of `rows` (`features()` values each) into `out`
    /// (two values a row, cleared first). `rows.len()` must be a multiple of `features()`.
    /// The engine scores one row at a time ([`TreeEnsemble::predict_row`]); tests check a batch.
    #[cfg(test)]
    pub fn predict(&self, rows: &[f32], out: &mut Vec<f32>) {
        out.clear();
        if self.features == 0 {
            return;
        }
        out.reserve(rows.len() / self.features * 2);
        for row in rows.chunks_exact(self.features) {
            let [p0, p1] = self.predict_row(row);
            out.push(p0);
            out.push(p1);
        }
    }

    /// The probabilities `[p0, p1]` of one row (`row.len() >= features()`).
    pub fn predict_row(&self, row: &[f32]) -> [f32; 2] {
        let row = &row[..self.features];
        let mut score = 0.0f32;
        for &root in &self.roots {
            let leaf = self.leaf(root, row);
            let (start, len) = (leaf.a as usize, leaf.b as usize);
            for w in &self.weights[start..start + len] {
                score += *w;
            }
        }
        match self.finish {
            Finish::One {
                base,
                logistic: l,
                all_positive,
            } => {
                let s = score + base;
                if l {
                    [logistic(-s), logistic(s)]
                } else if all_positive {
                    [1.0 - s, s]
                } else {
                    [-s, s]
                }
            }
            Finish::Two { b0, logistic: l } => {
                let s = score + b0;
                if l {
                    [logistic(s), logistic(0.0)]
                } else {
                    [s, 0.0]
                }
            }
        }
    }

    /// Calls `f` with the threshold of every branch.
    #[cfg(test)]
    pub(crate) fn visit_thresholds(&self, mut f: impl FnMut(f32)) {
        for n in self.nodes.iter().filter(|n| n.mode != Mode::Leaf) {
            f(n.value);
        }
    }

    /// The leaf a row reaches from a root (the structure is checked acyclic and in range).
    fn leaf(&self, root: u32, row: &[f32]) -> &Node {
        let mut n = &self.nodes[root as usize];
        loop {
            if n.mode == Mode::Leaf {
                return n;
            }
            let x = row[n.feature as usize];
            let t = n.value;
            let go_true = match n.mode {
                Mode::Leaf => false,
                Mode::Leq => x <= t,
                Mode::Lt => x < t,
                Mode::Gte => x >= t,
                Mode::Gt => x > t,
                Mode::Eq => x == t,
                Mode::Neq => x != t,
            } || (n.missing_true && x.is_nan());
            n = &self.nodes[if go_true { n.a } else { n.b } as usize];
        }
    }
}

/// The `TreeEnsembleClassifier` node of a graph of the supported shape: one float input
/// `[N, features]` feeding it, its probabilities reaching the `probabilities` output through
/// `Identity` nodes only, nothing else in the graph.
fn supported_graph(g: &pb::Graph, features: usize) -> Option<&pb::Node> {
    if g.has_initializers || g.inputs.len() != 1 {
        return None;
    }
    let input = &g.inputs[0];
    let dims_ok = |t: &pb::TensorType, second: i64| {
        t.elem_type == 1
            && t.dims.len() == 2
            && t.dims[1].is_none_or(|d| d == second)
            && t.dims[0].is_none_or(|d| d >= 0)
    };
    if !input
        .tensor
        .as_ref()
        .is_some_and(|t| dims_ok(t, features as i64))
    {
        return None;
    }
    let output = g.outputs.iter().find(|o| o.name == "probabilities")?;
    if !output.tensor.as_ref().is_some_and(|t| dims_ok(t, 2)) {
        return None;
    }
    let mut ops = g.nodes.iter().filter(|n| n.op_type != "Identity");
    let op = ops.next()?;
    if ops.next().is_some()
        || op.op_type != "TreeEnsembleClassifier"
        || op.domain != "ai.onnx.ml"
        || op.inputs.len() != 1
        || op.inputs[0] != input.name
        || op.outputs.len() != 2
    {
        return None;
    }
    // Follow Identity nodes from the probabilities to the output; each one used exactly once.
    let mut name = op.outputs[1].as_str();
    let identities: Vec<&pb::Node> = g.nodes.iter().filter(|n| n.op_type == "Identity").collect();
    let mut used = 0;
    while name != "probabilities" {
        let next = identities
            .iter()
            .find(|n| n.domain.is_empty() && n.inputs.len() == 1 && n.inputs[0] == name)?;
        if next.outputs.len() != 1 || used >= identities.len() {
            return None;
        }
        used += 1;
        name = next.outputs[0].as_str();
    }
    (used == identities.len()).then_some(op)
}

/// The classifier's attributes (`None` for any attribute or value this evaluator does not
/// implement: onnxruntime then runs the model).
#[derive(Default)]
struct Attributes<'a> {
    base_values: Vec<f32>,
    class_ids: Vec<i64>,
    class_nodeids: Vec<i64>,
    class_treeids: Vec<i64>,
    class_weights: Vec<f32>,
    classlabels: Vec<i64>,
    falsenodeids: Vec<i64>,
    featureids: Vec<i64>,
    missing_true: Vec<i64>,
    modes: Vec<&'a [u8]>,
    nodeids: Vec<i64>,
    treeids: Vec<i64>,
    truenodeids: Vec<i64>,
    values: Vec<f32>,
    logistic: bool,
}

impl<'a> Attributes<'a> {
    fn collect(list: &'a [pb::Attribute]) -> Option<Self> {
        let mut a = Attributes::default();
        for at in list {
            match at.name.as_str() {
                "base_values" => a.base_values = at.floats.clone(),
                "class_ids" => a.class_ids = at.ints.clone(),
                "class_nodeids" => a.class_nodeids = at.ints.clone(),
                "class_treeids" => a.class_treeids = at.ints.clone(),
                "class_weights" => a.class_weights = at.floats.clone(),
                "classlabels_int64s" => a.classlabels = at.ints.clone(),
                "nodes_falsenodeids" => a.falsenodeids = at.ints.clone(),
                "nodes_featureids" => a.featureids = at.ints.clone(),
                // Not used for inference (onnxruntime ignores them too).
                "nodes_hitrates" => {}
                "nodes_missing_value_tracks_true" => a.missing_true = at.ints.clone(),
                "nodes_modes" => a.modes = at.strings.iter().map(Vec::as_slice).collect(),
                "nodes_nodeids" => a.nodeids = at.ints.clone(),
                "nodes_treeids" => a.treeids = at.ints.clone(),
                "nodes_truenodeids" => a.truenodeids = at.ints.clone(),
                "nodes_values" => a.values = at.floats.clone(),
                "post_transform" => {
                    a.logistic = match at.s.as_slice() {
                        b"NONE" => false,
                        b"LOGISTIC" => true,
                        _ => return None,
                    }
                }
                // String labels, *_as_tensor (double) forms, anything else.
                _ => return None,
            }
        }
        // Binary with int64 labels; one weight column, class 0 (skl2onnx's binary form).
        let binary = a.classlabels.len() == 2
            && !a.class_ids.is_empty()
            && a.class_ids.iter().all(|c| *c == 0)
            && a.base_values.len() <= 2;
        binary.then_some(a)
    }

    /// Checks every length, id and link, and flattens the trees.
    fn build(self, features: usize) -> Result<Option<TreeEnsemble>> {
        let n = self.nodeids.len();
        if n == 0 {
            return Err(bad("no nodes"));
        }
        if n > u32::MAX as usize / 2 {
            return Err(bad("too many nodes"));
        }
        for (name, len) in [
            ("nodes_treeids", self.treeids.len()),
            ("nodes_modes", self.modes.len()),
            ("nodes_featureids", self.featureids.len()),
            ("nodes_values", self.values.len()),
            ("nodes_truenodeids", self.truenodeids.len()),
            ("nodes_falsenodeids", self.falsenodeids.len()),
        ] {
            if len != n {
                return Err(bad(format!("{name} has {len} values for {n} nodes")));
            }
        }
        if self.missing_true.len() > n {
            return Err(bad(format!(
                "nodes_missing_value_tracks_true has {} values for {n} nodes",
                self.missing_true.len()
            )));
        }
        let m = self.class_ids.len();
        for (name, len) in [
            ("class_nodeids", self.class_nodeids.len()),
            ("class_treeids", self.class_treeids.len()),
            ("class_weights", self.class_weights.len()),
        ] {
            if len != m {
                return Err(bad(format!("{name} has {len} values for {m} class ids")));
            }
        }
        // (tree, node) -> index; each tree's nodes listed together (onnxruntime starts a new
        // tree, at its first listed node, wherever the tree id changes).
        let mut index = std::collections::HashMap::with_capacity(n);
        let mut roots = Vec::new();
        let mut seen_trees = std::collections::HashSet::new();
        for i in 0..n {
            let (t, id) = (self.treeids[i], self.nodeids[i]);
            if i == 0 || self.treeids[i - 1] != t {
                if !seen_trees.insert(t) {
                    // Legal for onnxruntime (it then evaluates that tree twice); not
                    // something a trainer writes: onnxruntime decides.
                    return Ok(None);
                }
                roots.push(i as u32);
            }
            if index.insert((t, id), i as u32).is_some() {
                return Err(bad(format!("node {id} of tree {t} is listed twice")));
            }
        }
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let t = self.treeids[i];
            let mode = Mode::parse(self.modes[i]).ok_or_else(|| {
                bad(format!(
                    "node {} of tree {t}: unknown mode {:?}",
                    self.nodeids[i],
                    String::from_utf8_lossy(self.modes[i])
                ))
            })?;
            let missing_true = self.missing_true.get(i).is_some_and(|v| *v == 1);
            let (mut feature, mut a, mut b) = (0u32, 0u32, 0u32);
            if mode != Mode::Leaf {
                let f = self.featureids[i];
                if f < 0 || f as u64 >= features as u64 {
                    return Err(bad(format!(
                        "node {} of tree {t} reads feature {f}; the input has {features}",
                        self.nodeids[i]
                    )));
                }
                feature = f as u32;
                // onnxruntime also requires a child's id to be below the number of nodes.
                let link = |id: i64, which: &str| {
                    let in_range = (0..n as i64).contains(&id);
                    in_range
                        .then(|| index.get(&(t, id)).copied())
                        .flatten()
                        .ok_or_else(|| {
                            bad(format!(
                                "node {} of tree {t}: its {which} node {id} does not exist",
                                self.nodeids[i]
                            ))
                        })
                };
                a = link(self.truenodeids[i], "true")?;
                b = link(self.falsenodeids[i], "false")?;
            }
            nodes.push(Node {
                mode,
                missing_true,
                feature,
                value: self.values[i],
                a,
                b,
            });
        }
        // Leaf weights in onnxruntime's order: sorted by (tree, node), then as listed.
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by_key(|&k| (self.class_treeids[k], self.class_nodeids[k], k));
        let mut per_leaf: Vec<Vec<f32>> = vec![Vec::new(); n];
        for k in order {
            let (t, id) = (self.class_treeids[k], self.class_nodeids[k]);
            let Some(&i) = index.get(&(t, id)) else {
                return Err(bad(format!(
                    "a class weight names node {id} of tree {t}, which does not exist"
                )));
            };
            // Weights on a branch are ignored (as onnxruntime does: old converters wrote them).
            if nodes[i as usize].mode == Mode::Leaf {
                per_leaf[i as usize].push(self.class_weights[k]);
            }
        }
        let mut weights = Vec::with_capacity(m);
        for (i, w) in per_leaf.into_iter().enumerate() {
            let node = &mut nodes[i];
            if node.mode != Mode::Leaf {
                continue;
            }
            if w.is_empty() {
                return Err(bad(format!(
                    "leaf {} of tree {} has no weight",
                    self.nodeids[i], self.treeids[i]
                )));
            }
            node.a = weights.len() as u32;
            node.b = w.len() as u32;
            weights.extend(w);
        }
        check_acyclic(&nodes, |i| (self.treeids[i], self.nodeids[i]))?;
        // As onnxruntime: a weight "< 0" (NaN is not) makes the weights mixed.
        let all_positive = !self.class_weights.iter().any(|w| *w < 0.0);
        let logistic = self.logistic;
        let finish = match self.base_values.as_slice() {
            [b0, _] => Finish::Two { b0: *b0, logistic },
            rest => Finish::One {
                base: rest.first().copied().unwrap_or(0.0),
                logistic,
                all_positive,
            },
        };
        Ok(Some(TreeEnsemble {
            nodes,
            weights,
            roots,
            features,
            finish,
        }))
    }
}

/// Refuses a branch that leads back to itself (directly or not): evaluation would never end.
fn check_acyclic(nodes: &[Node], name: impl Fn(usize) -> (i64, i64)) -> Result<()> {
    // 0 unvisited, 1 on the current path, 2 done; iterative depth-first search.
    let mut state = vec![0u8; nodes.len()];
    let mut stack: Vec<(u32, u8)> = Vec::new();
    for start in 0..nodes.len() {
        if state[start] != 0 {
            continue;
        }
        stack.push((start as u32, 0));
        state[start] = 1;
        while let Some(top) = stack.last_mut() {
            let (i, step) = (top.0 as usize, top.1);
            let node = &nodes[i];
            let next = match (node.mode, step) {
                (Mode::Leaf, _) | (_, 2..) => None,
                (_, 0) => Some(node.a),
                (_, _) => Some(node.b),
            };
            top.1 = step.saturating_add(1);
            match next {
                None => {
                    state[i] = 2;
                    stack.pop();
                }
                Some(j) => match state[j as usize] {
                    0 => {
                        state[j as usize] = 1;
                        stack.push((j, 0));
                    }
                    1 => {
                        let (t, id) = name(i);
                        return Err(bad(format!(
                            "tree {t} has a cycle (node {id} leads back to node {})",
                            name(j as usize).1
                        )));
                    }
                    _ => {}
                },
            }
        }
    }
    Ok(())
}

/// Just enough of onnx.proto to find a graph's inputs, outputs and nodes with their attributes.
mod pb {
    use super::bad;
    use crate::error::Result;

    /// Protobuf wire values.
    enum Value<'a> {
        Varint(u64),
        Fixed64,
        Bytes(&'a [u8]),
        Fixed32(u32),
    }

    /// A cursor over one message's bytes.
    struct Reader<'a> {
        buf: &'a [u8],
    }

    impl<'a> Reader<'a> {
        fn varint(&mut self) -> Result<u64> {
            let mut v = 0u64;
            for shift in (0..64).step_by(7) {
                let (&b, rest) = self
                    .buf
                    .split_first()
                    .ok_or_else(|| bad("truncated protobuf (varint)"))?;
                self.buf = rest;
                v |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    return Ok(v);
                }
            }
            Err(bad("malformed protobuf (varint too long)"))
        }

        fn take(&mut self, n: usize) -> Result<&'a [u8]> {
            if n > self.buf.len() {
                return Err(bad("truncated protobuf"));
            }
            let (a, b) = self.buf.split_at(n);
            self.buf = b;
            Ok(a)
        }

        /// The next field: its number and value; `None` at the end.
        fn field(&mut self) -> Result<Option<(u64, Value<'a>)>> {
            if self.buf.is_empty() {
                return Ok(None);
            }
            let key = self.varint()?;
            let (number, wire) = (key >> 3, key & 7);
            if number == 0 {
                return Err(bad("malformed protobuf (field 0)"));
            }
            let value = match wire {
                0 => Value::Varint(self.varint()?),
                1 => {
                    self.take(8)?;
                    Value::Fixed64
                }
                2 => {
                    let len = self.varint()?;
                    let len = usize::try_from(len).map_err(|_| bad("truncated protobuf"))?;
                    Value::Bytes(self.take(len)?)
                }
                5 => {
                    let b = self.take(4)?;
                    Value::Fixed32(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                }
                w => return Err(bad(format!("malformed protobuf (wire type {w})"))),
            };
            Ok(Some((number, value)))
        }
    }

    /// Calls `f` for each field of a message.
    fn each<'a>(buf: &'a [u8], mut f: impl FnMut(u64, Value<'a>) -> Result<()>) -> Result<()> {
        let mut r = Reader { buf };
        while let Some((n, v)) = r.field()? {
            f(n, v)?;
        }
        Ok(())
    }

    fn bytes<'a>(v: Value<'a>, what: &str) -> Result<&'a [u8]> {
        match v {
            Value::Bytes(b) => Ok(b),
            _ => Err(bad(format!("malformed protobuf ({what})"))),
        }
    }

    fn string(v: Value<'_>, what: &str) -> Result<String> {
        let b = bytes(v, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| bad(format!("{what} is not UTF-8")))
    }

    /// A repeated int64, packed or not.
    fn ints(v: Value<'_>, out: &mut Vec<i64>) -> Result<()> {
        match v {
            Value::Varint(x) => out.push(x as i64),
            Value::Bytes(b) => {
                let mut r = Reader { buf: b };
                while !r.buf.is_empty() {
                    out.push(r.varint()? as i64);
                }
            }
            _ => return Err(bad("malformed protobuf (ints)")),
        }
        Ok(())
    }

    /// A repeated float, packed or not.
    fn floats(v: Value<'_>, out: &mut Vec<f32>) -> Result<()> {
        match v {
            Value::Fixed32(x) => out.push(f32::from_bits(x)),
            Value::Bytes(b) if b.len() % 4 == 0 => out.extend(
                b.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
            _ => return Err(bad("malformed protobuf (floats)")),
        }
        Ok(())
    }

    /// ModelProto: `graph` (7).
    pub struct Model {
        pub graph: Option<Graph>,
    }

    impl Model {
        pub fn parse(buf: &[u8]) -> Result<Self> {
            let mut graph = None;
            each(buf, |n, v| {
                if n == 7 {
                    graph = Some(Graph::parse(bytes(v, "graph")?)?);
                }
                Ok(())
            })?;
            Ok(Model { graph })
        }
    }

    /// GraphProto: `node` (1), `initializer` (5), `input` (11), `output` (12),
    /// `sparse_initializer` (15).
    pub struct Graph {
        pub nodes: Vec<Node>,
        pub inputs: Vec<ValueInfo>,
        pub outputs: Vec<ValueInfo>,
        pub has_initializers: bool,
    }

    impl Graph {
        fn parse(buf: &[u8]) -> Result<Self> {
            let mut g = Graph {
                nodes: Vec::new(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                has_initializers: false,
            };
            each(buf, |n, v| {
                match n {
                    1 => g.nodes.push(Node::parse(bytes(v, "node")?)?),
                    5 | 15 => g.has_initializers = true,
                    11 => g.inputs.push(ValueInfo::parse(bytes(v, "input")?)?),
                    12 => g.outputs.push(ValueInfo::parse(bytes(v, "output")?)?),
                    _ => {}
                }
                Ok(())
            })?;
            Ok(g)
        }
    }

    /// NodeProto: `input` (1), `output` (2), `op_type` (4), `attribute` (5), `domain` (7).
    pub struct Node {
        pub inputs: Vec<String>,
        pub outputs: Vec<String>,
        pub op_type: String,
        pub domain: String,
        pub attributes: Vec<Attribute>,
    }

    impl Node {
        fn parse(buf: &[u8]) -> Result<Self> {
            let mut node = Node {
                inputs: Vec::new(),
                outputs: Vec::new(),
                op_type: String::new(),
                domain: String::new(),
                attributes: Vec::new(),
            };
            each(buf, |n, v| {
                match n {
                    1 => node.inputs.push(string(v, "node input")?),
                    2 => node.outputs.push(string(v, "node output")?),
                    4 => node.op_type = string(v, "op_type")?,
                    5 => node
                        .attributes
                        .push(Attribute::parse(bytes(v, "attribute")?)?),
                    7 => node.domain = string(v, "domain")?,
                    _ => {}
                }
                Ok(())
            })?;
            Ok(node)
        }
    }

    /// AttributeProto: `name` (1), `s` (4), `floats` (7), `ints` (8), `strings` (9); any other
    /// value kind (`f` 2, `i` 3, `t` 5, `g` 6, ...) marks the attribute as of another form.
    pub struct Attribute {
        pub name: String,
        pub s: Vec<u8>,
        pub floats: Vec<f32>,
        pub ints: Vec<i64>,
        pub strings: Vec<Vec<u8>>,
    }

    impl Attribute {
        fn parse(buf: &[u8]) -> Result<Self> {
            let mut a = Attribute {
                name: String::new(),
                s: Vec::new(),
                floats: Vec::new(),
                ints: Vec::new(),
                strings: Vec::new(),
            };
            each(buf, |n, v| {
                match n {
                    1 => a.name = string(v, "attribute name")?,
                    4 => a.s = bytes(v, "attribute s")?.to_vec(),
                    7 => floats(v, &mut a.floats)?,
                    8 => ints(v, &mut a.ints)?,
                    9 => a.strings.push(bytes(v, "attribute strings")?.to_vec()),
                    _ => {}
                }
                Ok(())
            })?;
            Ok(a)
        }
    }

    /// ValueInfoProto: `name` (1), `type` (2) -> TypeProto `tensor_type` (1) -> `elem_type` (1),
    /// `shape` (2) -> `dim` (1) -> `dim_value` (1) / `dim_param` (2).
    pub struct ValueInfo {
        pub name: String,
        pub tensor: Option<TensorType>,
    }

    /// A tensor type: element type and dimensions (`None`: not fixed).
    pub struct TensorType {
        pub elem_type: i64,
        pub dims: Vec<Option<i64>>,
    }

    impl ValueInfo {
        fn parse(buf: &[u8]) -> Result<Self> {
            let mut vi = ValueInfo {
                name: String::new(),
                tensor: None,
            };
            each(buf, |n, v| {
                match n {
                    1 => vi.name = string(v, "value name")?,
                    2 => {
                        each(bytes(v, "type")?, |n, v| {
                            if n == 1 {
                                vi.tensor = Some(TensorType::parse(bytes(v, "tensor type")?)?);
                            }
                            Ok(())
                        })?;
                    }
                    _ => {}
                }
                Ok(())
            })?;
            Ok(vi)
        }
    }

    impl TensorType {
        fn parse(buf: &[u8]) -> Result<Self> {
            let mut t = TensorType {
                elem_type: 0,
                dims: Vec::new(),
            };
            each(buf, |n, v| {
                match (n, v) {
                    (1, Value::Varint(x)) => t.elem_type = x as i64,
                    (2, v) => each(bytes(v, "shape")?, |n, v| {
                        if n == 1 {
                            let mut dim = None;
                            each(bytes(v, "dim")?, |n, v| {
                                if let (1, Value::Varint(x)) = (n, v) {
                                    dim = Some(x as i64);
                                }
                                Ok(())
                            })?;
                            t.dims.push(dim);
                        }
                        Ok(())
                    })?,
                    _ => {}
                }
                Ok(())
            })?;
            Ok(t)
        }
    }
}

/// Writes small ONNX models of this family (tests here and in [`super::model`]).
#[cfg(test)]
pub(crate) mod encode {
    fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    fn key(n: u64, wire: u64, out: &mut Vec<u8>) {
        varint(n << 3 | wire, out);
    }

    fn bytes(n: u64, b: &[u8], out: &mut Vec<u8>) {
        key(n, 2, out);
        varint(b.len() as u64, out);
        out.extend_from_slice(b);
    }

    fn int(n: u64, v: i64, out: &mut Vec<u8>) {
        key(n, 0, out);
        varint(v as u64, out);
    }

    /// An attribute value.
    pub enum Attr<'a> {
        Ints(&'a [i64]),
        Floats(&'a [f32]),
        Strings(&'a [&'a str]),
        Str(&'a str),
    }

    fn attribute(name: &str, value: &Attr<'_>) -> Vec<u8> {
        let mut a = Vec::new();
        bytes(1, name.as_bytes(), &mut a);
        match value {
            // Unpacked, as onnx (proto2) writes them.
            Attr::Ints(v) => {
                for x in *v {
                    int(8, *x, &mut a);
                }
                int(20, 7, &mut a);
            }
            Attr::Floats(v) => {
                // Packed, which a reader must accept too.
                let mut p = Vec::new();
                for x in *v {
                    p.extend_from_slice(&x.to_le_bytes());
                }
                bytes(7, &p, &mut a);
                int(20, 6, &mut a);
            }
            Attr::Strings(v) => {
                for s in *v {
                    bytes(9, s.as_bytes(), &mut a);
                }
                int(20, 8, &mut a);
            }
            Attr::Str(s) => {
                bytes(4, s.as_bytes(), &mut a);
                int(20, 3, &mut a);
            }
        }
        a
    }

    fn node(
        op: &str,
        domain: &str,
        inputs: &[&str],
        outputs: &[&str],
        attrs: &[(&str, Attr<'_>)],
    ) -> Vec<u8> {
        let mut n = Vec::new();
        for i in inputs {
            bytes(1, i.as_bytes(), &mut n);
        }
        for o in outputs {
            bytes(2, o.as_bytes(), &mut n);
        }
        bytes(4, op.as_bytes(), &mut n);
        for (name, v) in attrs {
            bytes(5, &attribute(name, v), &mut n);
        }
        if !domain.is_empty() {
            bytes(7, domain.as_bytes(), &mut n);
        }
        n
    }

    /// A value: element type and dimensions (`None`: open).
    fn value(name: &str, elem: i64, dims: &[Option<i64>]) -> Vec<u8> {
        let mut shape = Vec::new();
        for d in dims {
            let mut dim = Vec::new();
            match d {
                Some(v) => int(1, *v, &mut dim),
                None => bytes(2, b"N", &mut dim),
            }
            bytes(1, &dim, &mut shape);
        }
        let mut tensor = Vec::new();
        int(1, elem, &mut tensor);
        bytes(2, &shape, &mut tensor);
        let mut ty = Vec::new();
        bytes(1, &tensor, &mut ty);
        let mut vi = Vec::new();
        bytes(1, name.as_bytes(), &mut vi);
        bytes(2, &ty, &mut vi);
        vi
    }

    /// A model: input `X` float[N, features] -> `op` (domain ai.onnx.ml) with `attrs` ->
    /// `label`, `proba_output` -> Identity -> `probabilities`.
    pub fn model(op: &str, features: i64, attrs: &[(&str, Attr<'_>)]) -> Vec<u8> {
        let mut g = Vec::new();
        let tec = node(op, "ai.onnx.ml", &["X"], &["label", "proba_output"], attrs);
        bytes(1, &tec, &mut g);
        let id = node("Identity", "", &["proba_output"], &["probabilities"], &[]);
        bytes(1, &id, &mut g);
        bytes(2, b"test", &mut g);
        bytes(11, &value("X", 1, &[None, Some(features)]), &mut g);
        bytes(12, &value("label", 7, &[None]), &mut g);
        bytes(12, &value("probabilities", 1, &[None, Some(2)]), &mut g);
        let mut m = Vec::new();
        int(1, 8, &mut m);
        let mut opset = Vec::new();
        bytes(1, b"ai.onnx.ml", &mut opset);
        int(2, 1, &mut opset);
        bytes(8, &opset, &mut m);
        let mut opset = Vec::new();
        int(2, 17, &mut opset);
        bytes(8, &opset, &mut m);
        bytes(7, &g, &mut m);
        m
    }

    /// A tree ensemble's attributes in one place, to vary one at a time.
    #[derive(Clone)]
    pub struct Trees {
        pub treeids: Vec<i64>,
        pub nodeids: Vec<i64>,
        pub modes: Vec<&'static str>,
        pub featureids: Vec<i64>,
        pub values: Vec<f32>,
        pub truenodeids: Vec<i64>,
        pub falsenodeids: Vec<i64>,
        pub missing_true: Vec<i64>,
        pub class_treeids: Vec<i64>,
        pub class_nodeids: Vec<i64>,
        pub class_weights: Vec<f32>,
        pub base_values: Vec<f32>,
        pub post_transform: &'static str,
    }

    impl Trees {
        /// Two trees over 3 features, every branch mode, a missing-value branch.
        pub fn sample() -> Self {
            Trees {
                // tree 0: 0 LEQ f0 0.5 ? 1 : 2; 1 LT f1 0.25 ? 3 : 4; 2 GTE f2 1 ? 5 : 6 (NaN true)
                // tree 1: 0 GT f0 -1 ? 1 : 2; 1 EQ f1 2 ? 3 : 4; 2 NEQ f2 3 ? 5 : 6
                treeids: [0; 7].into_iter().chain([1; 7]).collect(),
                nodeids: (0..7).chain(0..7).collect(),
                modes: [
                    "BRANCH_LEQ",
                    "BRANCH_LT",
                    "BRANCH_GTE",
                    "LEAF",
                    "LEAF",
                    "LEAF",
                    "LEAF",
                    "BRANCH_GT",
                    "BRANCH_EQ",
                    "BRANCH_NEQ",
                    "LEAF",
                    "LEAF",
                    "LEAF",
                    "LEAF",
                ]
                .to_vec(),
                featureids: vec![0, 1, 2, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0],
                values: vec![
                    0.5, 0.25, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0,
                ],
                truenodeids: vec![1, 3, 5, 0, 0, 0, 0, 1, 3, 5, 0, 0, 0, 0],
                falsenodeids: vec![2, 4, 6, 0, 0, 0, 0, 2, 4, 6, 0, 0, 0, 0],
                missing_true: vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                class_treeids: vec![0, 0, 0, 0, 1, 1, 1, 1],
                class_nodeids: vec![3, 4, 5, 6, 3, 4, 5, 6],
                class_weights: vec![0.5, -0.25, 1.5, -2.0, 0.125, 0.75, -0.5, 1.0],
                base_values: vec![-0.3],
                post_transform: "LOGISTIC",
            }
        }

        pub fn onnx(&self, features: i64) -> Vec<u8> {
            self.onnx_op("TreeEnsembleClassifier", features)
        }

        pub fn onnx_op(&self, op: &str, features: i64) -> Vec<u8> {
            let class_ids = vec![0i64; self.class_nodeids.len()];
            let hitrates = vec![1.0f32; self.nodeids.len()];
            let mut attrs = vec![
                ("class_ids", Attr::Ints(&class_ids)),
                ("class_nodeids", Attr::Ints(&self.class_nodeids)),
                ("class_treeids", Attr::Ints(&self.class_treeids)),
                ("class_weights", Attr::Floats(&self.class_weights)),
                ("classlabels_int64s", Attr::Ints(&[0, 1])),
                ("nodes_falsenodeids", Attr::Ints(&self.falsenodeids)),
                ("nodes_featureids", Attr::Ints(&self.featureids)),
                ("nodes_hitrates", Attr::Floats(&hitrates)),
                (
                    "nodes_missing_value_tracks_true",
                    Attr::Ints(&self.missing_true),
                ),
                ("nodes_modes", Attr::Strings(&self.modes)),
                ("nodes_nodeids", Attr::Ints(&self.nodeids)),
                ("nodes_treeids", Attr::Ints(&self.treeids)),
                ("nodes_truenodeids", Attr::Ints(&self.truenodeids)),
                ("nodes_values", Attr::Floats(&self.values)),
                ("post_transform", Attr::Str(self.post_transform)),
            ];
            if !self.base_values.is_empty() {
                attrs.push(("base_values", Attr::Floats(&self.base_values)));
            }
            model(op, features, &attrs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::encode::Trees;
    use super::*;
    use crate::ErrorCode;
    use crate::fields::model::EMBEDDED_MODEL;
    use crate::fields::vector::feature_count;

    fn parse(t: &Trees) -> Result<Option<TreeEnsemble>> {
        TreeEnsemble::from_onnx(&t.onnx(3), 3)
    }

    fn refused(t: &Trees, needle: &str) {
        let e = parse(t).expect_err("refused");
        assert_eq!(e.code(), ErrorCode::ModelError);
        assert!(e.to_string().contains(needle), "{e}");
    }

    #[test]
    fn the_embedded_model_is_native() {
        let m = TreeEnsemble::from_onnx(EMBEDDED_MODEL, feature_count())
            .expect("parses")
            .expect("supported shape");
        // The shape models/train.py fits (GradientBoostingClassifier, 150 trees of depth <= 3):
        // one root per tree, at most 15 nodes and 8 leaf weights per tree, and a retrain
        // changes the tree sizes but never this shape.
        assert_eq!(m.roots.len(), 150);
        assert!(m.nodes.len() > m.roots.len() && m.nodes.len() <= 15 * 150);
        assert!(m.weights.len() > m.roots.len() && m.weights.len() <= 8 * 150);
        assert!(matches!(
            m.finish,
            Finish::One {
                logistic: true,
                all_positive: false,
                ..
            }
        ));
        let [p0, p1] = m.predict_row(&vec![0.0; feature_count()]);
        assert!((p0 + p1 - 1.0).abs() < 1e-6 && (0.0..=1.0).contains(&p1));
        // Another row length is another model: onnxruntime's to judge.
        assert!(
            TreeEnsemble::from_onnx(EMBEDDED_MODEL, feature_count() + 1)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn every_mode_and_missing_values_follow_the_spec() {
        let m = parse(&Trees::sample()).unwrap().unwrap();
        let score = |x: [f32; 3]| {
            let [p0, p1] = m.predict_row(&x);
            assert!((p0 + p1 - 1.0).abs() < 1e-6);
            // σ(s) back to s.
            (p1 / (1.0 - p1)).ln() + 0.3
        };
        let close = |a: f32, b: f32| assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        // tree 0: x0 <= 0.5 -> x1 < 0.25 ? 0.5 : -0.25; else x2 >= 1 (or NaN) ? 1.5 : -2
        // tree 1: x0 > -1 -> x1 == 2 ? 0.125 : 0.75; else x2 != 3 ? -0.5 : 1
        close(score([0.5, 0.0, 0.0]), 0.5 + 0.75);
        close(score([0.5, 0.25, 0.0]), -0.25 + 0.75);
        close(score([0.6, 2.0, 1.0]), 1.5 + 0.125);
        close(score([0.6, 2.0, f32::NAN]), 1.5 + 0.125);
        close(score([0.6, 2.0, 0.99]), -2.0 + 0.125);
        close(score([-1.0, 0.0, 3.0]), 0.5 + 1.0);
        close(score([-1.0, 0.0, 2.0]), 0.5 - 0.5);
        // NaN fails every comparison but NEQ (no missing-value flag there).
        close(score([f32::NAN, f32::NAN, f32::NAN]), 1.5 - 0.5);
    }

    #[test]
    fn base_values_and_transforms_as_onnxruntime_applies_them() {
        let row = [0.5, 0.0, 0.0]; // score 1.25
        let mut t = Trees::sample();
        t.post_transform = "NONE";
        let m = parse(&t).unwrap().unwrap();
        let [p0, p1] = m.predict_row(&row);
        assert!((p1 - 0.95).abs() < 1e-6 && (p0 + 0.95).abs() < 1e-6);
        t.base_values = vec![];
        let [_, p1] = parse(&t).unwrap().unwrap().predict_row(&row);
        assert!((p1 - 1.25).abs() < 1e-6);
        // Two base values: the second class has no weight and no base value.
        t.base_values = vec![0.5, 2.0];
        let p = parse(&t).unwrap().unwrap().predict_row(&row);
        assert!((p[0] - 1.75).abs() < 1e-6 && p[1] == 0.0, "{p:?}");
        // All weights positive, no transform: [1 - s, s].
        t.class_weights = t.class_weights.iter().map(|w| w.abs() / 8.0).collect();
        t.base_values = vec![0.1];
        let [p0, p1] = parse(&t).unwrap().unwrap().predict_row(&row);
        let s = 0.5 / 8.0 + 0.75 / 8.0 + 0.1;
        assert!((p1 - s).abs() < 1e-6 && (p0 - (1.0 - s)).abs() < 1e-6);
        t.post_transform = "LOGISTIC";
        let [p0, p1] = parse(&t).unwrap().unwrap().predict_row(&row);
        assert!((p1 - logistic(s)).abs() < 1e-6 && (p0 - logistic(-s)).abs() < 1e-6);
        let mut rows = Vec::new();
        for _ in 0..3 {
            rows.extend(row);
        }
        let mut out = vec![9.0];
        parse(&t).unwrap().unwrap().predict(&rows, &mut out);
        assert_eq!(out.len(), 6);
        assert_eq!(out[4..], [p0, p1]);
    }

    #[test]
    fn other_models_are_left_to_onnxruntime() {
        let t = Trees::sample();
        assert!(
            TreeEnsemble::from_onnx(&t.onnx_op("TreeEnsembleRegressor", 3), 3)
                .unwrap()
                .is_none()
        );
        let mut s = t.clone();
        s.post_transform = "SOFTMAX";
        assert!(parse(&s).unwrap().is_none());
        let mut s = t.clone();
        s.base_values = vec![0.0; 3];
        assert!(parse(&s).unwrap().is_none());
        // The row length the engine feeds must be the input's.
        assert!(TreeEnsemble::from_onnx(&t.onnx(4), 3).unwrap().is_none());
    }

    #[test]
    fn broken_bytes_are_model_errors() {
        for bytes in [
            &EMBEDDED_MODEL[..EMBEDDED_MODEL.len() / 2],
            &EMBEDDED_MODEL[..EMBEDDED_MODEL.len() - 1],
            b"not onnx".as_slice(),
            &[
                0x3a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
            ],
            &[0x0f],
        ] {
            let e = TreeEnsemble::from_onnx(bytes, feature_count()).expect_err("refused");
            assert_eq!(e.code(), ErrorCode::ModelError, "{e}");
        }
        let e = TreeEnsemble::from_onnx(&[0x08, 0x08], 3).expect_err("no graph");
        assert!(e.to_string().contains("no graph"), "{e}");
    }

    #[test]
    fn broken_trees_are_model_errors() {
        let mut t = Trees::sample();
        t.truenodeids[1] = 99;
        refused(&t, "true node 99 does not exist");
        let mut t = Trees::sample();
        t.falsenodeids[8] = -1;
        refused(&t, "false node -1 does not exist");
        // Node ids may be sparse, but a child's id must be below the number of nodes.
        let mut t = Trees::sample();
        t.nodeids[13] = 20;
        t.falsenodeids[9] = 20;
        t.class_nodeids[7] = 20;
        refused(&t, "false node 20 does not exist");
        let mut t = Trees::sample();
        t.nodeids[13] = 13;
        t.falsenodeids[9] = 13;
        t.class_nodeids[7] = 13;
        assert!(parse(&t).unwrap().is_some());
        let mut t = Trees::sample();
        t.featureids[2] = 3;
        refused(&t, "reads feature 3");
        let mut t = Trees::sample();
        t.featureids[2] = -1;
        refused(&t, "reads feature -1");
        // 2 -> 0 -> 2.
        let mut t = Trees::sample();
        t.falsenodeids[2] = 0;
        refused(&t, "cycle");
        // A branch to itself.
        let mut t = Trees::sample();
        t.truenodeids[9] = 2;
        refused(&t, "cycle");
        let mut t = Trees::sample();
        t.class_nodeids[3] = 5;
        refused(&t, "leaf 6 of tree 0 has no weight");
        let mut t = Trees::sample();
        t.class_nodeids[0] = 42;
        refused(&t, "names node 42");
        let mut t = Trees::sample();
        t.nodeids[1] = 0;
        refused(&t, "listed twice");
        let mut t = Trees::sample();
        t.modes[0] = "BRANCH_SOMETIMES";
        refused(&t, "unknown mode");
        let mut t = Trees::sample();
        t.values.pop();
        refused(&t, "nodes_values has 13 values");
        let mut t = Trees::sample();
        t.class_weights.pop();
        refused(&t, "class_weights has 7 values");
    }
}
