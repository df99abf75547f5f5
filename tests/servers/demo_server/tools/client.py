"""Tools that ask the client itself rather than the person (the other two resolver markers):

- `ask_llm(question)`: a Resolver with `Sample` (both eras): one `sampling/createMessage`
  with a single user text message `{question}` and `maxTokens` 200 (legacy: a
  server-to-client request on the POST's SSE stream; modern: an `inputRequests` entry
  under the key `__main__:ask_model`). Returns `llm ({model}) said: {text}` (the model
  and the text content of the client's `CreateMessageResult`). A client that did not
  declare `sampling` gets the SDK's JSON-RPC error -32021 (missing required client
  capability, `data.requiredCapabilities` = `{"sampling": {}}`).
- `list_my_roots()`: a Resolver with `ListRoots` (both eras; key `__main__:fetch_roots`
  in the modern era). Returns `roots: {uri1} {uri2}` (the uris in the client's order)
  or `roots: none`. Without the `roots` capability: -32021 as above (`{"roots": {}}`).

The modern keys name the module `__main__` (`common.RESOLVER_MODULE`). The exact texts
are in `demo_server.texts`.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import ListRoots, Resolve, Sample
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent

from ..common import resolver
from ..texts import ClientRequests


@resolver
def ask_model(question: str) -> Sample:
    return Sample(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=question))],
        max_tokens=ClientRequests.MAX_TOKENS,
    )


def sampled_text(result: CreateMessageResult) -> str:
    """The text of a sampling result (its content is one block or, since 2025-11-25, a list)."""
    blocks = result.content if isinstance(result.content, list) else [result.content]
    return "".join(b.text for b in blocks if isinstance(b, TextContent))


async def ask_llm(question: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    """Ask the client's LLM (sampling/createMessage); needs the client's `sampling` capability."""
    return ClientRequests.SAID.format(model=answer.model, text=sampled_text(answer))


@resolver
def fetch_roots() -> ListRoots:
    return ListRoots()


async def list_my_roots(roots: Annotated[ListRootsResult, Resolve(fetch_roots)]) -> str:
    """List the client's roots (roots/list); needs the client's `roots` capability."""
    uris = [str(root.uri) for root in roots.roots]
    return ClientRequests.ROOTS.format(uris=" ".join(uris)) if uris else ClientRequests.NO_ROOTS
