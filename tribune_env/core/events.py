"""Event codes the compiled engine records for the readable log (formatted in Python)."""

from enum import IntEnum

WIDTH = 7  # code + 6 arguments
CAPACITY = 4096  # rows per step; row 0 holds the count


class Ev(IntEnum):
    ACTION = 1  # player, action
    SETUP = 2  # starting player
    ROUND = 3  # round, starting player
    DISCARDS = 4  # player, count
    DRAW = 5  # player
    RESHUFFLE = 6  # cards
    CESURA = 7
    SET_LOSES = 8  # faction, cards
    PROCONSUL = 9  # player
    PAYS = 10  # player, cost, card, region
    LATRINE = 11  # player, card
    CURIA = 12  # player, stack, cards
    ATRIUM_SINGLE = 13  # player, cost
    ATRIUM_BIDS = 14  # player 1, bid 1, player 2, bid 2, winner
    CATACOMBS = 15  # player, price
    PANTHEON = 16  # card
    ETERNAL = 17  # player
    RETURN_TEMP = 18  # player
    MARS_PAIR = 19  # player, sum
    CHALLENGE = 20  # player, faction, cards, sum
    TAKEOVER = 21  # player, faction, cards, sum
    MARKER = 22  # player, faction
    FIRST_LAUREL = 23  # player, faction
    LEADER = 24  # player, faction
    ASSASSIN = 25  # faction, card
    CHARIOT_BIDS = 26  # bids of seats 0-4
    CHARIOT = 27  # player, faction
    DECLARE = 28  # player
    GAME_OVER = 29  # round
    TRUNCATED = 30  # round limit
