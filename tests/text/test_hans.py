"""Simplified Chinese for mainland readers: the mainland's words, then its characters."""

import pytest

from arena.text import keys
from arena.text.catalog import _table
from arena.text.hans import to_hans
from arena.text.script import in_script
from dashboard.i18n import localize

TAIWAN = (
    "资料夹", "档案", "连结", "选单", "搜寻", "机率", "栏位", "贴上", "远端", "档名", "设定",
    "网路", "讯息", "资讯",
)  # fmt: skip
"""Taiwan's words as a character-by-character conversion leaves them: written here by
hand, not read from the table under test, and none is what a mainland reader calls it."""


def test_taiwan_words_become_the_mainlands() -> None:
    assert to_hans("回放資料夾裡沒有檔案；打開加入連結") == "回放文件夹里没有文件；打开加入链接"
    assert to_hans("從選單選擇，或搜尋對局編號") == "从菜单选择，或搜索对局编号"
    assert to_hans("欄位與機率") == "字段与概率"


def test_the_longest_word_wins_and_simplified_text_stays() -> None:
    assert to_hans("乙太網路由器") == "以太网路由器"  # not 以太网络 + 由器
    assert to_hans("文件夹里的文件，快取") == "文件夹里的文件，快取"  # no Traditional character
    assert to_hans("複製連結") == "复制链接"  # kept: 复制 is the mainland's own word


def test_single_characters_convert_as_before() -> None:
    assert [to_hans(c) for c in "狼預言家為"] == list("狼预言家为")


@pytest.mark.parametrize("where", ["terminal", "dashboard"])
def test_no_catalog_text_keeps_a_taiwan_word_in_simplified(where: str) -> None:
    convert = (
        (lambda s: in_script(s, "zh-Hans"))
        if where == "terminal"
        else (lambda s: localize(s, "zh-Hans"))
    )
    texts = _table("zh")
    assert len(texts) == len(keys("zh"))
    left = {(key, word) for key, text in texts.items() for word in TAIWAN if word in convert(text)}
    assert not left
    assert "文件夹" in convert(texts["dashboard.no_finished"])
