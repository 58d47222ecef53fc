"""The switches over task kinds are written out from tables; a rule is given the task's arguments its parameters name."""

import pytest

from tribune_env.core import dispatch
from tribune_env.task_switch import task_switch
from tribune_env.tasks import ARGS, DECISIONS, Task


def takeover_set(s, action, player, faction, role):
    return ("takeover_set", s, action, player, faction, role)


def curia_choice(action, player, stack):
    return ("curia_choice", action, player, stack)


def by_lookahead(s, action):
    return ("by_lookahead", s, action)


def make(table, default=None):
    return task_switch(
        "decide", ("s", "action", "kind", "a", "b", "c"), table, default=default, module=__name__, file=__file__
    )


def test_each_rule_gets_the_task_arguments_its_parameters_name():
    decide = make({Task.TAKEOVER_SET: takeover_set, Task.CURIA_CHOICE: curia_choice}, default=by_lookahead)
    assert decide("S", 7, Task.TAKEOVER_SET, 2, 5, 1) == ("takeover_set", "S", 7, 2, 5, 1)
    assert decide("S", 7, Task.CURIA_CHOICE, 3, 1, 0) == ("curia_choice", 7, 3, 1)
    assert decide("S", 7, Task.PLACE, 3, 0, 0) == ("by_lookahead", "S", 7)


def test_kinds_sharing_a_rule_share_a_branch():
    def bid(action, kind, player, digits_entered):
        return (kind, player, digits_entered)

    decide = make({Task.ATRIUM_BID: bid, Task.CHARIOT_BID: bid})
    assert decide.source.count("return bid(") == 1
    assert decide("S", 0, Task.CHARIOT_BID, 1, 2, 0) == (Task.CHARIOT_BID, 1, 2)
    assert decide("S", 0, Task.PLACE, 1, 2, 0) is None


def test_a_parameter_neither_the_switch_nor_the_task_has_is_refused_at_import():
    def penalty(action, player, space):  # a penalty is about a faction, not a space
        return space

    with pytest.raises(
        TypeError, match=r"parameter 'space' is neither .* nor an argument of task PENALTY \('player', 'faction'\)"
    ):
        make({Task.PENALTY: penalty})


def test_a_rule_named_like_the_switch_or_its_parameters_is_refused():
    def kind(action):
        return action

    with pytest.raises(ValueError, match="rule 'kind' has the name of the task switch"):
        make({Task.CURIA_CHOICE: kind})


def test_two_rules_of_one_name_are_refused():
    def other(action):
        return action

    other.__name__ = "curia_choice"
    with pytest.raises(ValueError, match="two rules named 'curia_choice'"):
        make({Task.CURIA_CHOICE: curia_choice, Task.LATRINE_CHOICE: other})


def test_the_engine_declares_a_rule_for_every_kind():
    assert set(dispatch.AUTOMATIC_RULES) == {kind for kind in Task if kind not in DECISIONS}
    assert set(dispatch.DECISION_RULES) == set(DECISIONS)
    assert all(ARGS[kind][0] == "player" for kind in DECISIONS)
