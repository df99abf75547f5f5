"""The demo's tools, one module per kind: `booking` (the seed tools and URL mode),
`forms`, `client` (sampling and roots), `streams` (`--resumable`), `faults` (retries),
`long` (progress and Stop).
`TOOLS` is their order in `tools/list`."""

from __future__ import annotations

from .booking import book_table, confirm_deposit, delete_folder, open_vault, pay_deposit, unlock_vault
from .client import ask_llm, list_my_roots
from .faults import cut_note, flaky_note, slow_report
from .long import slow_count
from .forms import all_fields, endless_questions, plan_route, plan_trip, route_by_list, setup_account
from .streams import confirm_deposit_after_drop, resume_after_drop

TOOLS = [
    book_table,
    pay_deposit,
    confirm_deposit,
    open_vault,
    unlock_vault,
    delete_folder,
    all_fields,
    plan_trip,
    setup_account,
    endless_questions,
    ask_llm,
    list_my_roots,
    resume_after_drop,
    confirm_deposit_after_drop,
    plan_route,
    slow_report,
    flaky_note,
    cut_note,
    route_by_list,
    slow_count,
]
"""Every tool but `book_in_region` (built per `--region-header`, listed after `delete_folder`)."""
