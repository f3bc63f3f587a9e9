"""A seat of a `zh-Hans` game reads the others in Simplified: copying them still says nothing.

Its chat converts every speech it heard (and the legal answers' text place) to Simplified
characters (issue 30), so a model that copies a bot's speech, or the place's words, writes
them in the other script than the log holds them; the spoke share must count it all the
same.
"""

from arena.ratings.speeches import is_placeholder, said_nothing
from tests.ratings.builders import speech


def test_a_copy_in_the_other_script_is_a_copy() -> None:
    heard = speech(1, "我覺得5號是狼，請大家投他。")
    copied = speech(2, "我觉得5号是狼，请大家投他。")  # what seat 2 read, in Simplified
    own = speech(3, "我觉得6号更像狼。")
    assert [silent for _, silent in said_nothing([heard, copied, own])] == [False, True, False]


def test_the_text_places_words_in_simplified_are_a_placeholder() -> None:
    assert is_placeholder("你自己的发言：你怎么看场上、怀疑谁、为什么")
    assert not is_placeholder("我是预言家，昨晚验了7号，是好人")
