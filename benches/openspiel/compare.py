"""OpenSpiel's figures on Kuhn poker and Leduc Hold'em, for docs/performance.md and
docs/solve.md: run beside draftsim's on the same machine (benches/openspiel/compare.sh).

Needs `pip install open_spiel` (2.0). Prints one line per measurement.
"""
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import exploitability
from open_spiel.python import policy as policy_lib


def cfr_plus(game_name, iterations):
    game = pyspiel.load_game(game_name)
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - start
    avg = solver.average_policy()
    expl = pyspiel.exploitability(game, avg)
    value = pyspiel.expected_returns(game.new_initial_state(), avg, -1, True)[0]
    print(f"{game_name} cfr+ {iterations} iterations: {seconds:.3f} s, exploitability {expl:.6f}, seat 0 value {value:.6f}")


def mccfr(game_name, seconds_budget, name, make_solver):
    """Runs `make_solver(game)`'s iterations for the budget, in thousands, then measures."""
    game = pyspiel.load_game(game_name)
    solver = make_solver(game)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds_budget:
        for _ in range(1000):
            solver.run_iteration()
        n += 1000
    seconds = time.perf_counter() - start
    expl = pyspiel.exploitability(game, solver.average_policy())
    print(f"{game_name} {name}: {n} iterations in {seconds:.2f} s = {n / seconds:.0f} it/s, exploitability {expl:.4f}")


def uniform(game_name):
    game = pyspiel.load_game(game_name)
    uni = policy_lib.UniformRandomPolicy(game)
    infosets = len(policy_lib.TabularPolicy(game).state_lookup)
    print(f"{game_name} uniform exploitability {exploitability.exploitability(game, uni):.6f}, {infosets} information sets")


def ismcts(game_name, sims, samples_per_state=8):
    """The search bot tabulated over every information state, as is_mcts_exploitability.py does."""
    game = pyspiel.load_game(game_name)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    bot = pyspiel.ISMCTSBot(1, evaluator, 0.7 * 2 ** 0.5, sims, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    tabular = policy_lib.TabularPolicy(game)
    decisions = 0
    start = time.perf_counter()
    for state_str, i in tabular.state_lookup.items():
        state = tabular.states[i] if hasattr(tabular, "states") else None
        if state is None:
            continue
        # As draftsim tabulates: the share of decisions that chose each action.
        probs = np.zeros(game.num_distinct_actions())
        for _ in range(samples_per_state):
            bot.restart()
            probs[bot.step(state)] += 1.0 / samples_per_state
            decisions += 1
        tabular.action_probability_array[i] = probs
    seconds = time.perf_counter() - start
    expl = exploitability.exploitability(game, tabular)
    print(f"{game_name} ismcts {sims} simulations: {decisions * sims / seconds:.0f} simulations/s, exploitability {expl:.4f}")


if __name__ == "__main__":
    for g in ["kuhn_poker", "leduc_poker"]:
        uniform(g)
    cfr_plus("kuhn_poker", 2000)
    cfr_plus("leduc_poker", 400)
    mccfr("leduc_poker", 10.0, "es-mccfr", lambda game: pyspiel.ExternalSamplingMCCFRSolver(game, seed=1))
    mccfr("leduc_poker", 10.0, "os-mccfr", pyspiel.OutcomeSamplingMCCFRSolver)
    for g in ["kuhn_poker", "leduc_poker"]:
        ismcts(g, 1000)
