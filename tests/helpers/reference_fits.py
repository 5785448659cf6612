"""Reference fits the analysis's fast ones are checked against: slow, plain, obviously right."""
import numpy as np


def per_game_bradley_terry(k, game, i, j, score, iterations=5000, tol=1e-9):
    """The reference fit, straight from the pair rows of every game: a wins matrix
    summed pair by pair and Hunter's MM iterations (all strategies won and lost)."""
    wins = np.zeros((k, k))
    for a, b, s in zip(i, j, score):
        wins[a, b] += s
        wins[b, a] += 1 - s
    total, won, p = wins + wins.T, wins.sum(axis=1), np.ones(k)
    for _ in range(iterations):
        new = won / (total / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.mean(np.log(new)))
        done = np.max(np.abs(new - p)) < tol
        p = new
        if done:
            break
    return np.log(p), np.unique(game).size
