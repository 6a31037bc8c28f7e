"""The predicate registry: what each predicate means for arbitration.

``cardinality`` one means a subject has one current value (LIVES_IN, BUDGET): a new value
is an update or a dispute. ``many`` means values coexist (LIKES, VISITED). ``sensitivity``
high means a clash is worth flagging (a budget), low means the newest simply wins. Synonyms
in both languages map extractor output onto the canonical name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Cardinality = Literal["one", "many"]
Sensitivity = Literal["high", "low"]


class Predicate(BaseModel):
    """One registered predicate."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    cardinality: Cardinality = "many"
    sensitivity: Sensitivity = "low"
    synonyms: tuple[str, ...] = ()


def _p(name: str, cardinality: Cardinality, sensitivity: Sensitivity, *synonyms: str) -> Predicate:
    return Predicate(name=name, cardinality=cardinality, sensitivity=sensitivity, synonyms=synonyms)


DEFAULT_PREDICATES: tuple[Predicate, ...] = (
    _p(
        "LIVES_IN", "one", "high", "lives in", "resides in", "住在", "居住在", "RESIDES_IN", "LOCATED_IN_CITY"
    ),
    _p("WORKS_AT", "one", "high", "works at", "works for", "employed by", "在…工作", "就职于", "EMPLOYED_BY"),
    _p("HAS_ROLE", "one", "high", "role", "job title", "position", "职位", "担任", "TITLE", "JOB_TITLE"),
    _p("BUDGET", "one", "high", "budget", "预算", "HAS_BUDGET"),
    _p("PRICE", "one", "high", "price", "costs", "价格", "报价", "COSTS"),
    _p("DEADLINE", "one", "high", "deadline", "due", "截止", "截止日期", "DUE_DATE"),
    _p("STATUS", "one", "high", "status", "状态"),
    _p("PHONE", "one", "high", "phone", "电话", "手机", "PHONE_NUMBER"),
    _p("EMAIL", "one", "high", "email", "邮箱", "EMAIL_ADDRESS"),
    _p("MARRIED_TO", "one", "high", "married to", "spouse", "配偶", "结婚", "SPOUSE"),
    _p("BIRTHDAY", "one", "high", "birthday", "born on", "生日", "出生", "BORN_ON"),
    _p("AGE", "one", "low", "age", "年龄"),
    _p("USES", "one", "low", "uses", "在用", "使用", "USING"),
    _p("PREFERS", "one", "low", "prefers", "更喜欢", "偏好", "PREFERENCE"),
    _p("MEETING_AT", "one", "high", "meeting at", "会议时间", "开会", "MEETS_AT"),
    _p("REPORTS_TO", "one", "high", "reports to", "汇报给", "上级", "MANAGER"),
    _p("OWNS", "many", "low", "owns", "拥有", "HAS"),
    _p("LIKES", "many", "low", "likes", "loves", "enjoys", "喜欢", "爱", "LOVES", "ENJOYS"),
    _p("DISLIKES", "many", "low", "dislikes", "hates", "不喜欢", "讨厌", "HATES"),
    _p("HAS_PET", "many", "low", "has pet", "pet", "养了", "宠物", "OWNS_PET"),
    _p("CHILD_OF", "many", "low", "child of", "孩子", "PARENT"),
    _p("FRIEND_OF", "many", "low", "friend of", "朋友", "FRIENDS_WITH"),
    _p("MEMBER_OF", "many", "low", "member of", "belongs to", "成员", "加入", "JOINED"),
    _p("VISITED", "many", "low", "visited", "went to", "去过", "参观过", "WENT_TO"),
    _p("PLANS_TO_VISIT", "many", "low", "plans to visit", "will visit", "参观", "计划去", "WILL_VISIT"),
    _p("STOPPED_USING", "many", "low", "stopped", "no longer uses", "不再", "停用", "QUIT"),
    _p("INTERESTED_IN", "many", "low", "interested in", "hobby", "对…感兴趣", "爱好", "HOBBY"),
    _p("STUDIES", "many", "low", "studies", "learning", "学习", "在学", "LEARNS"),
    _p("PART_OF", "many", "low", "part of", "located in", "属于", "位于", "LOCATED_IN"),
    _p("SIGNED", "many", "low", "signed", "签了", "签署", "SIGNED_CONTRACT"),
    _p("ORDERED", "many", "low", "ordered", "下单", "订购", "PLACED_ORDER"),
    _p("CANCELLED", "many", "high", "cancelled", "取消", "作废", "撤销", "CANCELED"),
)


def _key(text: str) -> str:
    return re.sub(r"[\s_\-]+", "_", text.strip()).upper()


class PredicateRegistry:
    """Look up predicates by canonical name or synonym; unknown names are ``many``/``low``."""

    def __init__(self, predicates: Iterable[Predicate] = DEFAULT_PREDICATES) -> None:
        self._by_key: dict[str, Predicate] = {}
        for predicate in predicates:
            self._by_key[_key(predicate.name)] = predicate
            for synonym in predicate.synonyms:
                self._by_key.setdefault(_key(synonym), predicate)

    def canonical(self, name: str) -> Predicate:
        """Return the registered predicate ``name`` means, or an ad-hoc ``many``/``low`` one."""
        found = self._by_key.get(_key(name))
        if found is not None:
            return found
        return Predicate(name=_key(name) if re.fullmatch(r"[A-Z][A-Z0-9_]*", _key(name)) else "RELATED_TO")

    def __len__(self) -> int:
        return len({p.name for p in self._by_key.values()})
