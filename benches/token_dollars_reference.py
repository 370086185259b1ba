#!/usr/bin/env python3
"""The Riddler solution's reference program (from shared/papers/token-dollars.md), verbatim
except for its three parameters, which come from the command line, and a timer.
The baseline for "at least 1000x faster than the riddler's Python program for 7 players
on 10 stacks". Usage: python3 benches/token_dollars_reference.py [players] [stacks] [clock]
"""
import sys
import time
MAX_DOLLARS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
PLAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
CLOCK = len(sys.argv) > 3 and sys.argv[3] == 'clock'

# Return the distance between two numbers around a clock
def clockDistance(a,b):
	global MAX_DOLLARS
	return min(abs(a - b), abs(a + MAX_DOLLARS - b), abs(b + MAX_DOLLARS - a)) 

# Return a list of player payoffs for a complete game state
def getPayoffs(state):
	global PLAYERS, CLOCK
	payoffs = [0] * PLAYERS
	for number in range(1,MAX_DOLLARS + 1):
		minDistance = MAX_DOLLARS
		nearestPlayers = []
		for player in range(PLAYERS):
			if not CLOCK:
				distance = abs(state[player] - number)
			else:
				distance = clockDistance(state[player], number)
			if distance < minDistance:
				minDistance = distance
				nearestPlayers = [player]
			elif distance == minDistance:
				nearestPlayers += [player]
		for player in nearestPlayers:
			payoffs[player] += number*1.0/len(nearestPlayers)
	return payoffs

# For a game state (a list of moves), return a tuple containing the best 
# complete game state given optimal play going forward together with
# a tuple containing the payoffs for that game.
def getOptimalCompletion(state):
	global ties, PLAYERS
	bestMove = 0
	bestValue = 0
	tie = False
	if len(state) == PLAYERS:
		return (state, getPayoffs(state))
	for move in range(1, MAX_DOLLARS + 1):
		if move in state:
			continue
		newState = list(state + [move])
		newCompletion, newPayoffs = getOptimalCompletion(newState)
		newValue = newPayoffs[len(newState) - 1]
		if newValue == bestValue:
			tie = True
		elif newValue > bestValue:
			bestValue = newValue
			bestCompletion = newCompletion
			bestPayoffs = newPayoffs
			tie = False
	if tie:
		ties += [list(state)]
	return (bestCompletion, bestPayoffs)

# Find the optimally-played game, and note any "ties" where multiple moves are optimal.
ties = []
_start = time.perf_counter()
optimalGame = getOptimalCompletion([])
print("seconds:", round(time.perf_counter() - _start, 3))
print("An optimal game is", optimalGame)
for i in range(len(optimalGame[0])):
	if optimalGame[0][:i] in ties:
		print('Tie at', optimalGame[0][:i])
