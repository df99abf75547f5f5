//! Finding and judging `x-mcp-header` annotations the way the SDK does
//! (`mcp/shared/inbound.py`: `_walk_schema_positions`,
//! `find_invalid_x_mcp_header`, `x_mcp_header_map`).
//!
//! The 2026-07-28 spec says a client MUST drop a tool whose annotations are
//! invalid, and the server checks `Mcp-Param-*` headers against the same
//! rules, so both the verdict and the header map must be the SDK's exactly:
//! the same schema positions visited, in the same order (which decides which
//! of several faults a reason names, and which of two duplicates is "first").

use std::collections::btree_map::{BTreeMap, Entry};

use serde_json::{Map, Value};

use super::pyrepr::{repr_str, type_name};

/// The schema keyword that designates an `Mcp-Param-*` header.
pub const X_MCP_HEADER_KEY: &str = "x-mcp-header";

/// Applicators whose value is one schema. Like every keyword below except
/// `properties`, crossing one leaves the statically reachable chain.
/// Instance data (`default`, `const`, `enum`, `examples`) and `$ref` are
/// deliberately absent, as in the SDK: data is never mistaken for an
/// annotation and nothing is dereferenced.
const SUBSCHEMA_SINGLE: &[&str] = &[
    "items",
    "contains",
    "unevaluatedItems",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Applicators whose value is an array of schemas.
const SUBSCHEMA_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Applicators whose value is an object of schemas.
const SUBSCHEMA_MAP: &[&str] = &[
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Where a schema position sits relative to the root.
#[derive(Clone, Copy)]
enum Chain {
    /// The root itself (the SDK's `()`).
    Root,
    /// Reached from the root through `properties` keys only: the index of the
    /// last key in [`Walk::links`].
    At(usize),
    /// Some other applicator was crossed on the way (the SDK's `None`).
    Off,
}

/// Every schema position of a value, in the SDK's order: an explicit stack,
/// popped last-in first-out, each object's keywords pushed in document order
/// (serde_json keeps it, as Python's dicts do). No recursion, so no input
/// depth can exhaust the call stack; each value is visited at most once.
struct Walk<'a> {
    stack: Vec<(Chain, &'a Value)>,
    /// `properties` keys on the chain, each with the index of its parent key:
    /// paths share their prefixes, so a deep chain costs linear memory.
    links: Vec<(&'a str, Option<usize>)>,
}

impl<'a> Walk<'a> {
    fn new(root: &'a Value) -> Self {
        Walk {
            stack: vec![(Chain::Root, root)],
            links: Vec::new(),
        }
    }

    /// The next schema position (an object), after queueing its subschemas.
    fn next_position(&mut self) -> Option<(Chain, &'a Map<String, Value>)> {
        while let Some((chain, node)) = self.stack.pop() {
            let Value::Object(schema) = node else {
                continue;
            };
            for (kw, val) in schema {
                let kw = kw.as_str();
                if kw == "properties" {
                    if let Value::Object(props) = val {
                        for (name, sub) in props {
                            let child = match chain {
                                Chain::Off => Chain::Off,
                                Chain::Root => self.link(name, None),
                                Chain::At(parent) => self.link(name, Some(parent)),
                            };
                            self.stack.push((child, sub));
                        }
                    }
                } else if SUBSCHEMA_SINGLE.contains(&kw) {
                    self.stack.push((Chain::Off, val));
                } else if SUBSCHEMA_LIST.contains(&kw) {
                    if let Value::Array(subs) = val {
                        self.stack.extend(subs.iter().map(|s| (Chain::Off, s)));
                    }
                } else if SUBSCHEMA_MAP.contains(&kw) {
                    if let Value::Object(subs) = val {
                        self.stack.extend(subs.values().map(|s| (Chain::Off, s)));
                    }
                }
            }
            return Some((chain, schema));
        }
        None
    }

    fn link(&mut self, name: &'a str, parent: Option<usize>) -> Chain {
        self.links.push((name, parent));
        Chain::At(self.links.len() - 1)
    }

    /// The `properties` keys from the root to the position at `at`.
    fn path(&self, at: usize) -> Vec<String> {
        let mut keys = Vec::new();
        let mut next = Some(at);
        while let Some((name, parent)) = next.and_then(|i| self.links.get(i)) {
            keys.push((*name).to_string());
            next = *parent;
        }
        keys.reverse();
        keys
    }
}

/// Why a tool's `x-mcp-header` annotations are invalid: the facts, for the IO
/// layer to word in the person's language. The names in it are quoted as the
/// SDK quotes them (Python's `repr`: escapes keep a hostile name from
/// rearranging the text); its `Display` is the SDK's reason, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderFault {
    /// An annotation off the pure `properties` chain (or on the root).
    Unreachable,
    /// On `property`, an annotation whose value is no string but a `got` (Python's
    /// type name).
    NotString { property: String, got: String },
    /// On `property`, a `token` that is not an RFC 9110 token.
    NotToken { property: String, token: String },
    /// On `property`, whose `type` is the string `got`, not one a header may carry.
    WrongType { property: String, got: String },
    /// On `property`, whose `type` keyword is no string but a `got` (Python's type
    /// name; `NoneType` when absent).
    TypeNotString { property: String, got: String },
    /// `token` on `property` names the header `first` already does (ignoring case).
    Duplicate {
        token: String,
        property: String,
        first: String,
    },
}

impl std::fmt::Display for HeaderFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const K: &str = X_MCP_HEADER_KEY;
        match self {
            HeaderFault::Unreachable => write!(
                f,
                "{K} found at a schema position not reachable via a pure `properties` chain"
            ),
            HeaderFault::NotString { property, got } => {
                write!(f, "property {property}: {K} must be a string, not {got}")
            }
            HeaderFault::NotToken { property, token } => write!(
                f,
                "property {property}: {K} {token} is not an RFC 9110 token"
            ),
            HeaderFault::WrongType { property, got } => write!(
                f,
                "property {property}: {K} is only permitted on integer/string/boolean \
                 properties (got {got})"
            ),
            HeaderFault::TypeNotString { property, got } => write!(
                f,
                "property {property}: {K} is only permitted on integer/string/boolean \
                 properties (the type keyword is {got}, not a string)"
            ),
            HeaderFault::Duplicate {
                token,
                property,
                first,
            } => write!(
                f,
                "{K} {token} on property {property} duplicates property {first}"
            ),
        }
    }
}

/// Why the `x-mcp-header` annotations of a tool's input schema are invalid,
/// worded as the SDK's `find_invalid_x_mcp_header` words it, or `None` when
/// they are all valid (or there are none; a schema that is not an object has
/// none). [`header_fault`] gives the facts.
///
/// Valid means, for every annotation anywhere in the schema (inside `anyOf`,
/// `items`, `$defs` and every other applicator, but not inside instance data
/// such as `default` or `enum`, nor behind a `$ref`): it sits on a property
/// reached from the root through `properties` keys only (not on the root),
/// its value is a string that is an RFC 9110 token, the property's `type` is
/// the string `"string"`, `"integer"` or `"boolean"`, and no other annotation
/// names the same header ignoring ASCII case. The first fault in the SDK's
/// walk order is the one reported.
pub fn invalid_x_mcp_header(input_schema: &Value) -> Option<String> {
    header_fault(input_schema).map(|fault| fault.to_string())
}

/// Why the `x-mcp-header` annotations of a tool's input schema are invalid (see
/// [`invalid_x_mcp_header`]), as facts; `None` when they are all valid.
pub fn header_fault(input_schema: &Value) -> Option<HeaderFault> {
    scan(input_schema, None).err()
}

/// The `properties` path and header token of every `x-mcp-header` annotation
/// in the schema, in the SDK's order, or, when [`invalid_x_mcp_header`] would
/// reject the schema, its reason. A valid schema's map is the SDK's
/// `x_mcp_header_map`; paths may be nested (`["o", "flag"]`).
pub fn x_mcp_header_map(input_schema: &Value) -> Result<Vec<(Vec<String>, String)>, String> {
    header_map(input_schema).map_err(|fault| fault.to_string())
}

/// [`x_mcp_header_map`] with the fault as facts (a caller that only needs the map links
/// no wording of the fault).
pub fn header_map(input_schema: &Value) -> Result<Vec<(Vec<String>, String)>, HeaderFault> {
    let mut out = Vec::new();
    scan(input_schema, Some(&mut out))?;
    Ok(out)
}

/// Walks the schema, judging each annotation in turn and handing each valid
/// one to `map` when given; stops at the first fault with its reason. Paths
/// are only spelled out for `map` and for a reason, so judging alone stays
/// linear in the size of the schema however deep its chains are.
fn scan(
    input_schema: &Value,
    mut map: Option<&mut Vec<(Vec<String>, String)>>,
) -> Result<(), HeaderFault> {
    // Lower-cased token -> the chain index of the property that first used it.
    // A B-tree, not a hash map: wasm has no random hash keys, and a server must
    // not be able to pick colliding tokens.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut walk = Walk::new(input_schema);
    while let Some((chain, schema)) = walk.next_position() {
        let Some(header) = schema.get(X_MCP_HEADER_KEY) else {
            continue;
        };
        let Chain::At(at) = chain else {
            return Err(HeaderFault::Unreachable);
        };
        let where_ = || repr_str(&walk.path(at).join("."));
        let Value::String(token) = header else {
            return Err(HeaderFault::NotString {
                property: where_(),
                got: type_name(header).to_owned(),
            });
        };
        if !is_token(token) {
            return Err(HeaderFault::NotToken {
                property: where_(),
                token: repr_str(token),
            });
        }
        match schema.get("type") {
            Some(Value::String(t)) if matches!(t.as_str(), "string" | "integer" | "boolean") => {}
            Some(Value::String(t)) => {
                return Err(HeaderFault::WrongType {
                    property: where_(),
                    got: repr_str(t),
                })
            }
            other => {
                return Err(HeaderFault::TypeNotString {
                    property: where_(),
                    got: other.map_or("NoneType", type_name).to_owned(),
                })
            }
        }
        match seen.entry(token.to_ascii_lowercase()) {
            Entry::Occupied(first) => {
                return Err(HeaderFault::Duplicate {
                    token: repr_str(token),
                    property: where_(),
                    first: repr_str(&walk.path(*first.get()).join(".")),
                })
            }
            Entry::Vacant(slot) => {
                slot.insert(at);
            }
        }
        if let Some(map) = map.as_deref_mut() {
            map.push((walk.path(at), token.clone()));
        }
    }
    Ok(())
}

/// RFC 9110 §5.6.2 token: the only characters an HTTP field name may hold.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
