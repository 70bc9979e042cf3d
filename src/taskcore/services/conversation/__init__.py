"""The conversation's use cases: the road every inbox event takes (``road``), and the steps it calls.

``road.handle_arrived`` (the webhook's group commit) and ``road.handle_inbox`` (the processor) are the only ways in;
both run each event through ``road.handle`` inside one unit of work (``taskcore.storage.unit``). The drawing of the
road, each step naming its module, is docs/architecture.md.
"""
