"""Plain references for the Tanglung solo search: a straightforward best-first search, and the
no-revisit tour checked by depth-first search and independently by CP-SAT (AddCircuit)."""

from __future__ import annotations

from ...errors import SolverError
from ...solver import cpsat


def search_graph_reference(
    adj_lists: list[list[int]], noflip: int, n: int, start: int, lit0: int
) -> tuple[int, int, list[int]]:
    """Level-by-level BFS with dicts: (fewest moves or -1, optimal tour count, one tour)."""
    full = (1 << n) - 1
    s0 = (start, lit0)
    if lit0 == full:
        return 0, 1, [start]
    level = {s0: 1}
    parent = {s0: None}
    depth = 0
    while level:
        depth += 1
        nxt: dict[tuple[int, int], int] = {}
        for (p, lit), c in level.items():
            for q in adj_lists[p]:
                if lit >> q & 1:
                    nl = lit if noflip >> p & 1 else lit & ~(1 << p)
                else:
                    nl = lit | (1 << q)
                ns = (q, nl)
                if ns in parent and ns not in nxt:
                    continue
                if ns not in nxt:
                    parent[ns] = (p, lit)
                    nxt[ns] = 0
                nxt[ns] += c
        goals = sorted(s for s in nxt if s[1] == full)
        if goals:
            total = sum(nxt[s] for s in goals)
            path = []
            s = goals[0]
            while s is not None:
                path.append(s[0])
                s = parent[s]
            return depth, total, path[::-1]
        level = nxt
    return -1, 0, []


def no_revisit_tour_dfs(adj_lists: list[list[int]], n: int, start: int, lit0: int) -> list[int] | None:
    """Plain DFS for a tour that only ever moves onto dark cards and ends with all lit."""
    full = (1 << n) - 1

    def dfs(p: int, lit: int, path: list[int]) -> list[int] | None:
        if lit == full:
            return path
        for q in adj_lists[p]:
            if not lit >> q & 1:
                r = dfs(q, lit | (1 << q), path + [q])
                if r is not None:
                    return r
        return None

    return dfs(start, lit0, [start])


def no_revisit_tour_cpsat(
    adj_lists: list[list[int]], n: int, start: int, lit0: int, time_limit: float = 30.0
) -> list[int] | None:
    """The same question as a CP-SAT AddCircuit model (independent cross-check).

    Nodes: the cards, an origin (the matchbox's first position, with the start card's moves)
    and a depot; the circuit is depot -> origin -> every dark card once -> depot, each arc a
    legal move onto a dark card. Lit cards sit out (self-loop). A dark start card is an ordinary
    dark node: it must be entered once, at any point of the tour.
    """
    from ortools.sat.python import cp_model

    full = (1 << n) - 1
    if lit0 == full:
        return [start]
    dark = [v for v in range(n) if not lit0 >> v & 1]
    dark_set = set(dark)
    origin, depot = n, n + 1
    m = cp_model.CpModel()
    arcs = []
    lits: dict[tuple[int, int], object] = {}

    def arc(u: int, v: int):
        b = m.NewBoolVar(f"a{u}_{v}")
        lits[(u, v)] = b
        arcs.append((u, v, b))
        return b

    for v in range(n):
        if v not in dark_set:
            arcs.append((v, v, m.NewConstant(1)))
    m.Add(arc(depot, origin) == 1)
    for q in adj_lists[start]:
        if q in dark_set:
            arc(origin, q)
    for u in dark:
        for q in adj_lists[u]:
            if q in dark_set and q != u:
                arc(u, q)
        arc(u, depot)
    # AddCircuit ignores nodes that appear in no arc: a required node needs an arc in and out
    for v in dark + [origin]:
        if not any(x == v and y != v for x, y, _ in arcs) or not any(y == v and x != v for x, y, _ in arcs):
            return None
    m.AddCircuit(arcs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    st = cpsat.solve(solver, m)
    if st == cp_model.INFEASIBLE:
        return None
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError("CP-SAT did not decide the no-revisit tour in time")
    succ = {u: v for (u, v), b in lits.items() if solver.Value(b)}
    path = [start]
    cur = succ[origin]
    while cur != depot:
        path.append(cur)
        cur = succ[cur]
    return path
