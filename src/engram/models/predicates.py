"""Register the predicates: what each means for arbitration and for the builtin extractor.

The one source of truth for predicate semantics. ``cardinality`` one means a subject has
one current value (LIVES_IN, BUDGET): a new value is an update or a dispute. ``many`` means
values coexist (LIKES, VISITED, USES). ``sensitivity`` high means a clash is worth flagging
(a budget), low means the newest simply wins (only one-valued predicates ever clash).
``synonyms`` in both languages map extractor output and phrasing onto the canonical name.

For the builtin extractor: ``object_kind`` says whether the object is an entity (of
``object_type``, "" for any), a literal value or an amount. Negation is encoded as a
predicate: ``stop`` names what "no longer / 不再 / stopped" turns a predicate into (USES →
STOPPED_USING), ``negation`` what a plain "not / 不" turns it into (LIKES → DISLIKES), and
``ends`` on the resulting predicate names the predicate whose fact with the same subject and
object it closes (STOPPED_USING ends USES, MOVED_FROM ends LIVES_IN, LEFT_ORGANISATION ends
WORKS_AT): an ``invalid_at`` signal for the arbiter; ``also_ends`` names more of them
(LEFT_ORGANISATION also ends MEMBER_OF). ``opposes`` names a predicate whose fact with the
same target a new fact of this one closes, and the other way round (LIKES and DISLIKES).
The arbiter also closes, for a new fact, the current stop facts that ended its predicate
(using a tool again closes "stopped using" it). ``scope`` "thread" makes a one-valued value the
conversation's rather than only its subject's: a participant's new meeting time ends the one
another participant set in the same thread (engram.graph.ending).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Cardinality = Literal["one", "many"]
Sensitivity = Literal["high", "low"]
Scope = Literal["subject", "thread"]
ObjectKind = Literal["entity", "value", "amount"]


class Predicate(BaseModel):
    """One registered predicate: how its facts combine, how people say it, what negates it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    cardinality: Cardinality = "many"
    sensitivity: Sensitivity = "low"
    synonyms: tuple[str, ...] = ()
    object_kind: ObjectKind = "value"
    object_type: str = ""
    negation: str | None = None
    stop: str | None = None
    ends: str | None = None
    also_ends: tuple[str, ...] = ()
    opposes: str | None = None
    scope: Scope = "subject"

    @property
    def closes(self) -> tuple[str, ...]:
        """Return the predicates whose fact with the same subject and target this one closes."""
        return tuple(dict.fromkeys(p for p in (self.ends, *self.also_ends, self.opposes) if p))


def _p(
    name: str,
    cardinality: Cardinality,
    sensitivity: Sensitivity,
    kind: ObjectKind,
    object_type: str,
    synonyms: str,
    **more: str | tuple[str, ...],
) -> Predicate:
    return Predicate(
        name=name,
        cardinality=cardinality,
        sensitivity=sensitivity,
        synonyms=tuple(synonyms.split("|")),
        object_kind=kind,
        object_type=object_type,
        **more,
    )


# A synonym key (see synonym_key) names one predicate only: tests/graph/test_predicates.py checks it.
DEFAULT_PREDICATES: tuple[Predicate, ...] = (
    # where people live and come from
    _p("LIVES_IN", "one", "high", "entity", "place",
       "lives in|resides in|based in|住在|居住在|家在|定居|RESIDES_IN|LOCATED_IN_CITY", stop="MOVED_FROM"),
    _p("MOVED_FROM", "many", "low", "entity", "place",
       "moved from|moved out of|搬离|从…搬走", ends="LIVES_IN"),
    _p("COMES_FROM", "one", "high", "entity", "place", "is from|comes from|grew up in|来自|老家在|是…人"),
    # work and study
    _p("WORKS_AT", "one", "high", "entity", "organisation",
       "works at|works for|employed by|在…工作|在…上班|就职于|EMPLOYED_BY", stop="LEFT_ORGANISATION"),
    _p("LEFT_ORGANISATION", "many", "low", "entity", "organisation", "left|resigned from|离开|从…离职",
       ends="WORKS_AT", also_ends=("MEMBER_OF",)),
    _p("HAS_ROLE", "one", "high", "entity", "role",
       "role|job title|position|is a|works as|serves as|职位|担任|作为|TITLE|JOB_TITLE", stop="LEFT_ROLE"),
    _p("REPORTS_TO", "one", "high", "entity", "person",
       "reports to|my boss is|汇报给|向…汇报|上级|上级是|MANAGER"),
    _p("STUDIES_AT", "one", "high", "entity", "organisation", "studies at|student at|在…读书|在…上学"),
    _p("STUDIES", "many", "low", "value", "", "studies|learning|学习|在学|LEARNS"),
    _p("MEMBER_OF", "many", "low", "entity", "organisation",
       "member of|belongs to|joined|成员|加入|是…成员|JOINED"),
    # money, time and status of a deal or a task
    _p("BUDGET", "one", "high", "amount", "", "budget|预算|HAS_BUDGET"),
    _p("PRICE", "one", "high", "amount", "", "price|costs|quoted at|价格|报价|售价|单价|COSTS"),
    _p("DEADLINE", "one", "high", "value", "",
       "deadline|due|due by|due on|截止|截止日期|之前提交|之前完成|DUE_DATE"),
    _p("MEETING_AT", "one", "high", "value", "",
       "meeting at|meeting on|meet on|会议时间|开会|会议在|见面|MEETS_AT", scope="thread"),
    _p("STATUS", "one", "high", "value", "", "status|状态"),
    _p("SIGNED", "many", "low", "entity", "document", "signed|签了|签署|SIGNED_CONTRACT"),
    _p("ORDERED", "many", "low", "entity", "product", "ordered|下单|订购|PLACED_ORDER"),
    _p("CANCELLED", "many", "high", "value", "", "cancelled|取消|作废|撤销|CANCELED"),
    # contact details: work and personal ones coexist
    _p("PHONE", "many", "low", "value", "", "phone|电话|手机|PHONE_NUMBER"),
    _p("EMAIL", "many", "low", "entity", "email",
       "email|email is|reach me at|邮箱|邮箱是|邮件地址|EMAIL_ADDRESS"),
    # tastes, tools and plans
    _p("PREFERS", "one", "low", "value", "", "prefers|favorite is|rather|更喜欢|偏好|倾向于|首选|PREFERENCE"),
    _p("LIKES", "many", "low", "value", "",
       "likes|loves|enjoys|fan of|喜欢|爱|热爱|LOVES|ENJOYS", negation="DISLIKES",
       opposes="DISLIKES"),
    _p("DISLIKES", "many", "low", "value", "", "dislikes|hates|can't stand|不喜欢|讨厌|HATES", ends="LIKES",
       opposes="LIKES"),
    _p("INTERESTED_IN", "many", "low", "value", "", "interested in|hobby|对…感兴趣|爱好|HOBBY"),
    _p("USES", "many", "low", "entity", "product", "uses|is using|switched to|在用|使用|用的是|换成|USING",
       negation="STOPPED_USING", stop="STOPPED_USING"),
    _p("STOPPED_USING", "many", "low", "entity", "product",
       "stopped|stopped using|no longer uses|quit using|不再|不再用|停用|不用…了|QUIT", ends="USES"),
    _p("OWNS", "many", "low", "value", "", "owns|bought|got a new|拥有|买了|HAS"),
    _p("PLANS_TO_VISIT", "many", "low", "entity", "place",
       "plans to visit|will visit|going to|trip to|参观|计划去|打算去|拜访|WILL_VISIT"),
    _p("VISITED", "many", "low", "entity", "place",
       "visited|went to|been to|去过|参观过|参观了|去了|WENT_TO"),
    _p("PLANS_TO", "many", "low", "value", "", "plans to|gonna|打算|计划|准备"),
    _p("GOAL", "many", "low", "value", "", "goal is|wants to become|dream is|目标是|想成为|梦想是"),
    _p("PART_OF", "many", "low", "entity", "place", "part of|located in|属于|位于|LOCATED_IN"),
    # people and animals
    _p("MARRIED_TO", "one", "high", "entity", "person",
       "married to|spouse|my wife|my husband|配偶|结婚|和…结婚|老婆|老公|妻子|丈夫|SPOUSE"),
    _p("CHILD_OF", "many", "low", "entity", "person",
       "child of|my son|my daughter|my mom|my dad|孩子|儿子|女儿|爸爸|妈妈|PARENT"),
    _p("SIBLING_OF", "many", "low", "entity", "person", "my brother|my sister|哥哥|姐姐|弟弟|妹妹"),
    _p("FRIEND_OF", "many", "low", "entity", "person", "friend of|my friend|my buddy|朋友|FRIENDS_WITH"),
    _p("HAS_PET", "many", "low", "entity", "animal",
       "has pet|has a pet|pet|my dog|my cat|养了|宠物|我家的狗|我家的猫|OWNS_PET"),
    _p("BIRTHDAY", "one", "high", "value", "",
       "birthday|birthday is|born on|生日|生日是|出生|出生于|BORN_ON"),
    _p("AGE", "one", "low", "value", "", "age|years old|年龄|岁"),
    # staffing, responsibility and roles ended (the builtin extractor emits them too)
    _p("ASSIGNED_TO", "one", "high", "entity", "project",
       "assigned to|reassigned to|staffed on|分到|调到|被分配到|派到|ASSIGNED", stop="UNASSIGNED_FROM"),
    _p("UNASSIGNED_FROM", "many", "low", "entity", "",
       "unassigned from|taken off|removed from|reassigned from|调离|不再负责|UNASSIGNED",
       ends="ASSIGNED_TO", also_ends=("RESPONSIBLE_FOR",)),
    _p("RESPONSIBLE_FOR", "many", "low", "value", "",
       "responsible for|in charge of|handles|负责|主管|分管|RESPONSIBLE"),
    _p("LEFT_ROLE", "many", "low", "entity", "role",
       "stepped down as|lost job as|no longer works as|不再担任|卸任|辞去|STEPPED_DOWN", ends="HAS_ROLE"),
    _p("WORKS_ON", "many", "low", "value", "", "works on|working on|在做|在搞|WORKING_ON"),
    _p("WORKS_FROM", "one", "low", "value", "",
       "works from|works remotely from|在…办公|办公地点|WORK_LOCATION"),
    _p("MANAGES", "many", "low", "entity", "", "manages|leads|管理|带领|MANAGER_OF"),
    _p("CONTACT", "one", "low", "entity", "person",
       "contact|contact person|point of contact|对接人|联系人|CONTACT_PERSON"),
    _p("CUSTOMER_OF", "many", "low", "entity", "organisation", "customer of|client of|是…的客户|CLIENT_OF"),
    # dates, quantities and money of a deal or a product
    _p("LAUNCH_DATE", "one", "high", "value", "",
       "launch date|launches on|go-live|release date|上线日期|发布日期|GO_LIVE|RELEASE_DATE"),
    _p("EXPIRES_ON", "one", "high", "value", "",
       "expires on|expiry|expiration date|valid until|到期|到期日|有效期至|EXPIRY_DATE"),
    _p("QUANTITY", "one", "high", "amount", "", "quantity|units|数量|QTY"),
    _p("DISCOUNT", "one", "high", "value", "", "discount|折扣|优惠|打折"),
    _p("PAID", "many", "low", "amount", "", "paid|payment|付款|支付|已付|PAYMENT_RECEIVED"),
    _p("HAS_ISSUE", "many", "low", "value", "", "has issue|problem with|故障|出问题|ISSUE"),
    # life events and traits
    _p("ATTENDED", "many", "low", "value", "",
       "attended|took part in|participated in|参加了|出席|PARTICIPATED_IN"),
    _p("CREATED", "many", "low", "value", "", "created|made|wrote|painted|创作|写了|MADE|WROTE"),
    _p("VOLUNTEERS_AT", "many", "low", "value", "", "volunteers at|volunteer|做志愿者|当志愿者|VOLUNTEERS"),
    _p("SPONSORED_BY", "many", "low", "entity", "organisation", "sponsored by|endorsed by|赞助|代言|SPONSOR"),
    _p("ALLERGIC_TO", "many", "low", "value", "", "allergic to|allergy|过敏|对…过敏|ALLERGY"),
    _p("DIET", "one", "low", "value", "", "diet|is vegetarian|吃素|素食|饮食"),
    _p("PARTNER_OF", "one", "high", "entity", "person",
       "partner of|girlfriend|boyfriend|dating|女朋友|男朋友|对象|PARTNER"),
)  # fmt: skip


def synonym_key(text: str) -> str:
    """Return the lookup key of a predicate name or synonym: trimmed, UPPER_SNAKE."""
    return re.sub(r"[\s_\-]+", "_", text.strip()).upper()


class PredicateRegistry(Mapping[str, Predicate]):
    """Predicates by canonical name (a Mapping); ``canonical`` also resolves synonyms.

    Unknown names are ``many``/``low``.
    """

    def __init__(self, predicates: Iterable[Predicate] = DEFAULT_PREDICATES) -> None:
        self._by_name: dict[str, Predicate] = {}
        self._by_key: dict[str, Predicate] = {}
        for predicate in predicates:
            self._by_name[predicate.name] = predicate
            self._by_key[synonym_key(predicate.name)] = predicate
            for synonym in predicate.synonyms:
                self._by_key.setdefault(synonym_key(synonym), predicate)
        self._ended_by: dict[str, tuple[str, ...]] = {}
        for predicate in self._by_name.values():
            for closed in predicate.closes:
                self._ended_by[closed] = (*self._ended_by.get(closed, ()), predicate.name)

    def canonical(self, name: str, *, keep_unknown: bool = False) -> Predicate:
        """Return the registered predicate ``name`` means, or an ad-hoc ``many``/``low`` one.

        An unknown name becomes its UPPER_SNAKE key; one that cannot (合作) becomes
        RELATED_TO, or with ``keep_unknown`` stays as given (for the caller's validation to name it).
        """
        key = synonym_key(name)
        found = self._by_key.get(key)
        if found is not None:
            return found
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", key):
            return Predicate(name=key)
        return Predicate.model_construct(name=name) if keep_unknown else Predicate(name="RELATED_TO")

    def ended_by(self, name: str) -> tuple[str, ...]:
        """Return the registered predicates whose facts close a fact of ``name`` (its ``closes``)."""
        return self._ended_by.get(name, ())

    def closest(self, name: str) -> str | None:
        """Return the registered name an unknown one most looks like (WORK_AT → WORKS_AT), if any is
        close (rapidfuzz ratio ≥ 80 on the UPPER_SNAKE keys), else None."""
        from rapidfuzz import fuzz, process

        found = process.extractOne(synonym_key(name), list(self._by_name), scorer=fuzz.ratio, score_cutoff=80)
        return None if found is None else str(found[0])

    def known(self, name: str) -> bool:
        """Return True when ``name`` (or a synonym of it) is registered."""
        return synonym_key(name) in self._by_key

    def __getitem__(self, name: str) -> Predicate:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)


REGISTRY = PredicateRegistry()
"""The default registry, shared by the builtin extractor and the arbiter's callers."""
