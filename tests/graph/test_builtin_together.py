"""People said together ("Tom and I", 赵倩、邓凯都…), relatives named without 我 or "my", roles that
title a name, handovers of a role, and habits of getting to work (sentences written for these tests;
each case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # Two people joined by "and" share what is said of them; "with" (跟 without 都) joins no one,
    # nor does a name only addressed or a kinship.
    ("我和小王都喜欢猫。", "王芳", {("王芳", "LIKES", "猫"), ("小王", "LIKES", "猫")}, set()),
    ("Tom and I live in Denver.", "Ann",
     {("Ann", "LIVES_IN", "Denver"), ("Tom", "LIVES_IN", "Denver")}, set()),
    ("Tom and Lisa both work at Google.", "Ann",
     {("Tom", "WORKS_AT", "Google"), ("Lisa", "WORKS_AT", "Google")}, set()),
    ("我跟张总说了喜欢猫。", "王芳", set(), {("张总", "LIKES", "猫")}),
    ("I met Tom and Lisa works at Globex now.", "Ann", {("Lisa", "WORKS_AT", "Globex")},
     {("Ann", "WORKS_AT", "Globex"), ("Tom", "WORKS_AT", "Globex")}),
    ("Sam, Kim and I all live in Seattle.", "Ann",
     {("Ann", "LIVES_IN", "Seattle"), ("Kim", "LIVES_IN", "Seattle")}, set()),
    ("Lisa Wong heads marketing at Orbis. Tom Price reports to her.", "Ann",
     {("Tom Price", "REPORTS_TO", "Lisa Wong")}, set()),
    ("Woah Joanna, I love hiking.", "Ann", {("Ann", "LIKES", "hiking")}, {("Joanna", "LIKES", "hiking")}),
    ("My mom and I made dinner together last night!", "Ann", set(), {("Ann's mom", "CREATED", "dinner")}),
    # A pronoun object is not the subject of its own clause: whom 赵倩 and 邓凯 report to was named before.
    ("同步下组织调整：数据平台组以后归刘振宇管，赵倩、邓凯都向他汇报。", "王芳",
     {("赵倩", "REPORTS_TO", "刘振宇"), ("邓凯", "REPORTS_TO", "刘振宇")}, set()),
    ("From their side: VP Ops Carla Nunez and Dev Patel, who reports to her.", "Ann",
     {("Dev Patel", "REPORTS_TO", "Carla Nunez"), ("Carla Nunez", "HAS_ROLE", "VP Ops")}, set()),
    # Being somewhere as a state (都在, 一直在) needs someone said to be there.
    ("我姐上周生了。她和姐夫都在厦门。", "王芳",
     {("王芳的姐姐", "LIVES_IN", "厦门"), ("王芳的姐夫", "LIVES_IN", "厦门")}, set()),
    ("货都在宁波。", "王芳", set(), {("王芳", "LIVES_IN", "宁波")}),
    ("这周我住在张伟家。", "王芳", set(), {("王芳", "WORKS_FROM", "张伟家")}),
    # Relatives named without 我: after 我和, an opening 跟, a child word opening a sentence; her husband
    # after 她和 is not the speaker's.
    ("跟女朋友在一起三年了，她在上海做律师。", "王芳",
     {("王芳的女朋友", "PARTNER_OF", "王芳"), ("王芳的女朋友", "HAS_ROLE", "律师")}, set()),
    ("她和老公住在杭州。", "王芳", set(), {("王芳的老公", "LIVES_IN", "杭州")}),
    ("娃明天正式上一年级了，在育才小学。", "王芳",
     {("王芳的孩子", "STUDIES_AT", "育才小学"), ("王芳的孩子", "CHILD_OF", "王芳")},
     {("王芳", "CHILD_OF", "王芳的孩子"), ("王芳", "STUDIES_AT", "育才小学")}),
    ("Dad finally retired! He and Mom are moving down to Tampa in November.", "Ann",
     {("Ann's dad", "STATUS", "retired"), ("Ann's dad", "LIVES_IN", "Tampa"),
      ("Ann's mom", "LIVES_IN", "Tampa")},
     set()),
    ("Thanks Mom! Jake's Mom lives in Ohio.", "Ann", set(), {("Ann's mom", "LIVES_IN", "Ohio")}),
    # How one gets to work, and where: a ride made a habit; a named company's seat is where it is.
    ("平时骑电动车上班，下雨天就打车，公司在科技园那边。", "王芳",
     {("王芳", "USES", "电动车"), ("王芳", "USES", "打车"), ("王芳", "WORKS_FROM", "科技园")}, set()),
    ("今天坐地铁去的。", "王芳", set(), {("王芳", "USES", "地铁")}),
    ("入职乐途科技满一周啦～公司在望京。", "王芳",
     {("乐途科技", "LIVES_IN", "望京")}, {("王芳", "WORKS_FROM", "望京")}),
    ("我老公得去北京上班了。", "王芳",
     {("王芳的老公", "WORKS_FROM", "北京")}, {("王芳的老公", "LIVES_IN", "北京")}),
    # A role handed over: left by one, taken by the one named (by 由…接任 or 一职由…接任).
    ("我从这周起不再兼任质量经理了，由郝亮接任，生产计划这块还是我负责。", "王芳",
     {("王芳", "LEFT_ROLE", "质量经理"), ("郝亮", "HAS_ROLE", "质量经理"),
      ("王芳", "RESPONSIBLE_FOR", "生产计划")},
     set()),
    ("原华北区大客户经理一职由郑琳接任。", "王芳", {("郑琳", "HAS_ROLE", "华北区大客户经理")},
     {("郑琳", "HAS_ROLE", "原华北区大客户经理")}),
    ("成立华南大客户部，单丽娜任总经理；原广州组长韦强改任大客户总监。", "王芳",
     {("单丽娜", "HAS_ROLE", "总经理"), ("韦强", "LEFT_ROLE", "广州组长"),
      ("韦强", "HAS_ROLE", "大客户总监")},
     {("韦强", "HAS_ROLE", "组长")}),
    ("小宋转正了。", "王芳", {("小宋", "STATUS", "转正")}, set()),
    ("我老公在字节做后端开发。", "王芳", {("王芳的老公", "HAS_ROLE", "后端开发")}, set()),
    # A department moved to (转岗去), a clause opening with a name jieba cut apart; not 任务 or 韩剧.
    ("叶家豪下周一起转岗去海外事业部。", "王芳", {("叶家豪", "MEMBER_OF", "海外事业部")}, set()),
    ("我已经把Trello停了，任务都搬到了Notion里。", "王芳",
     {("王芳", "USES", "Notion")}, {("任务都", "USES", "Notion")}),
    ("韩剧我已经不追了，最近改看纪录片。", "王芳", set(), {("韩剧我", "USES", "纪录片")}),
    # Given up with the thing said first; an idiom's 不 negates nothing; an allergen without 对.
    ("钢琴学了两年还是放弃了，最近迷上尤克里里。", "王芳",
     {("王芳", "STOPPED_USING", "钢琴"), ("王芳", "LIKES", "尤克里里")}, set()),
    ("周末雷打不动去爬山。", "王芳", {("王芳", "LIKES", "爬山")}, {("王芳", "DISLIKES", "爬山")}),
    ("我老婆芒果过敏，吃一口就起疹子。", "王芳", {("王芳的老婆", "ALLERGIC_TO", "芒果")}, set()),
    ("我皮肤过敏。", "王芳", set(), {("王芳", "ALLERGIC_TO", "我皮肤"), ("王芳", "ALLERGIC_TO", "皮肤")}),
    # What one cannot stand is what was just said, not an emoji.
    ("我老婆芒果过敏。她最爱榴莲，我是闻都受不了😂", "王芳",
     {("王芳", "DISLIKES", "榴莲")}, {("王芳", "DISLIKES", "😂")}),
    ("我舅舅在乌鲁木齐待了二十多年，下个月退休就搬回扬州老家了。", "王芳",
     {("王芳的舅舅", "LIVES_IN", "乌鲁木齐"), ("王芳的舅舅", "COMES_FROM", "扬州")}, set()),
    # A capitalised role titling a name, at a clause's start or after "their": the person's role, and the
    # organisation named before employs them; a verb opening a note is no part of a name.
    ("Met Okafor & Sons Construction today. Owner Chidi Okafor makes the call.", "Ann",
     {("Chidi Okafor", "WORKS_AT", "Okafor & Sons Construction"), ("Chidi Okafor", "HAS_ROLE", "owner")},
     set()),
    ("Sable Creek Winery cancelled SC-2210. Their GM Rhys Calder says they're buying elsewhere.", "Ann",
     {("Rhys Calder", "HAS_ROLE", "GM"), ("Rhys Calder", "WORKS_AT", "Sable Creek Winery")}, set()),
    ("The printers at Westbrook Pharmacy jam. Store manager Keith Danvers says they'll switch.", "Ann",
     {("Keith Danvers", "HAS_ROLE", "store manager"), ("Keith Danvers", "WORKS_AT", "Westbrook Pharmacy")},
     set()),
    ("Lead Generation Summit was fun.", "Ann", set(), {("Generation Summit", "HAS_ROLE", "lead")}),
    # A CRM record's fields: the customer, its decision maker and the system it runs; a self-introduction.
    ("【CRM转发】客户：同舟医药连锁｜决策人：运营副总裁霍建平｜现用：金蝶云星空。", "王芳",
     {("霍建平", "HAS_ROLE", "运营副总裁"), ("霍建平", "WORKS_AT", "同舟医药连锁"),
      ("同舟医药连锁", "USES", "金蝶云星空")},
     set()),
    ("您好，我是知行教育的采购邰敏，以后这块我负责。", "邰敏",
     {("邰敏", "WORKS_AT", "知行教育"), ("邰敏", "HAS_ROLE", "采购")}, {("邰敏", "RESPONSIBLE_FOR", "以后")}),
    ("拜访启明光电，IT负责人葛伟确认预算80万。", "王芳",
     {("葛伟", "HAS_ROLE", "IT负责人"), ("启明光电", "BUDGET", 800000)}, set()),
    # A contact taken over by someone of a department (not the branch the old one moved to), whose number
    # follows; a landline after a name; a self-introduction by name; a role the speaker takes over.
    ("中恒物业换对接人了：原来的孙姐调去他们苏州分公司，现在由行政部的邵斌跟我们对接，电话13916628830。",
     "王芳",
     {("中恒物业", "CONTACT", "邵斌"), ("邵斌", "PHONE", "13916628830")},
     {("苏州分公司", "CONTACT", "邵斌"), ("行政部", "PHONE", "13916628830")}),
    ("约他时间找秘书小钱，座机021-64538812。", "王芳", {("小钱", "PHONE", "02164538812")}, set()),
    ("自我介绍一下，我叫卢凯，安顺快运的运营总监。", "卢凯",
     {("卢凯", "WORKS_AT", "安顺快运"), ("卢凯", "HAS_ROLE", "运营总监")}, set()),
    ("I'm no longer the scrum master for the mobile team; Raj took over.", "Ann",
     {("Ann", "LEFT_ROLE", "scrum master"), ("Raj", "HAS_ROLE", "scrum master")}, set()),
    ("Raj took over.", "Ann", set(), {("Raj", "HAS_ROLE", "took over")}),
    # A pastime taken up; a shop of one's own (not a favourite one); volunteering is not keeping fit.
    ("Been busy volunteering at the homeless shelter and keeping fit. Just started doing aerial yoga.", "Ann",
     {("Ann", "VOLUNTEERS_AT", "homeless shelter"), ("Ann", "LIKES", "aerial yoga")},
     {("Ann", "VOLUNTEERS_AT", "homeless shelter and keeping fit")}),
    ("I took up pottery last year.", "Ann", {("Ann", "LIKES", "pottery")}, set()),
    ("I just launched an ad campaign for my clothing store.", "Ann",
     {("Ann", "OWNS", "clothing store")}, set()),
    ("I went to my favorite store.", "Ann", set(), {("Ann", "OWNS", "store")}),
    ("从今天起华南区销售经理由我接任。", "王芳", {("王芳", "HAS_ROLE", "华南区销售经理")},
     {("王芳", "HAS_ROLE", "天起华南区销售经理")}),
    # A tool left for another, both named; a move between cities is no tool; a start date is no tool.
    ("CRM我们已经从纷享销客切到销售易了。", "王芳",
     {("王芳", "STOPPED_USING", "纷享销客"), ("王芳", "USES", "销售易")}, set()),
    ("从北京迁到上海了。", "王芳", set(), {("王芳", "STOPPED_USING", "北京")}),
    ("川渝区代理从下月起换成成都蓉信科技。", "王芳", set(), {("王芳", "STOPPED_USING", "下月起")}),
    # Leaving, the employer unsaid, is also a status (not for a retirement, its own); on a day to come too.
    ("赵强上周离职了。", "王芳", {("赵强", "STATUS", "离职")}, set()),
    ("Jeff quit last month.", "Ann", {("Jeff", "STATUS", "left")}, set()),
    ("我爸上个月退休了。", "王芳", {("王芳的爸爸", "STATUS", "退休")}, {("王芳的爸爸", "STATUS", "离职")}),
    ("如果我月底就离职了怎么办？", "王芳", set(), {("王芳", "STATUS", "离职")}),
    # Settled somewhere "now" (not a trip); a QA lead titles a name.
    ("Moved out of Brooklyn last month, we're in Jersey City now.", "Ann",
     {("Ann", "LIVES_IN", "Jersey City")}, set()),
    ("I'm in Paris for work this week.", "Ann", set(), {("Ann", "LIVES_IN", "Paris")}),
    ("Quantra Labs pushed go-live to May 6. Their QA lead Sven Holt says logins fail.", "Ann",
     {("Sven Holt", "HAS_ROLE", "QA lead"), ("Sven Holt", "WORKS_AT", "Quantra Labs")}, set()),
    # Near misses: a company hiring, a trip, a steering wheel, helpers sent by a department, a husband
    # against quitting, a customer's brother-in-law, a stomach, a capitalised phrase after a role word,
    # someone's mother, a note asking a caller back, a holiday jieba took for a name.
    ("公司在招人，有合适的推荐一下。", "王芳", set(), {("王芳", "WORKS_FROM", "招人")}),
    ("我一般就打车上班，不开车。", "王芳", {("王芳", "USES", "打车")}, {("王芳", "PREFERS", "就打车上班")}),
    ("儿子每天坐校车上学。", "王芳", {("王芳的儿子", "USES", "校车")}, set()),
    ("春节在三亚呆了三天。", "王芳", set(), {("王芳", "LIVES_IN", "三亚")}),
    ("我这周一直在北京开会，周五回。", "王芳", set(), {("王芳", "LIVES_IN", "北京")}),
    ("方向盘转正了再倒车。", "王芳", set(), {("王芳", "STATUS", "转正")}),
    ("售后这块一直是我负责。", "王芳", {("王芳", "RESPONSIBLE_FOR", "售后")}, set()),
    ("调行政部的人来帮忙搬东西。", "王芳", set(), {("王芳", "MEMBER_OF", "行政部")}),
    ("跟老公说了，他不同意我辞职。", "王芳", set(), {("王芳", "STATUS", "离职")}),
    ("客户刘女士说她和姐夫都在厦门。", "王芳", set(), {("王芳的姐夫", "LIVES_IN", "厦门")}),
    ("我老公超爱香菜，我是一点都受不了。", "王芳",
     {("王芳的老公", "LIKES", "香菜"), ("王芳", "DISLIKES", "香菜")}, set()),
    ("我以前很喜欢吃辣，现在胃受不了，已经不吃了。", "王芳", {("王芳", "STOPPED_USING", "辣")},
     {("王芳", "DISLIKES", "辣")}),
    ("黄金周下周就到了，打算去三亚。", "王芳",
     {("王芳", "PLANS_TO_VISIT", "三亚")}, {("黄金周", "PLANS_TO_VISIT", "三亚")}),
    ("Manager Approval Required for all refunds over $500.", "Ann", set(),
     {("Approval Required", "HAS_ROLE", "manager")}),
    ("Jake's Mom works at Target.", "Ann", set(),
     {("Jake", "WORKS_AT", "Target"), ("Ann's mom", "WORKS_AT", "Target")}),
    # A pet of "his"; tools one is moved between; a hubby is a husband; going vegan is a diet.
    ("My brother Danny is moving to Tokyo, and he's taking his cat Miso with him.", "Ann",
     {("Danny", "HAS_PET", "Miso")}, {("Ann", "HAS_PET", "Miso")}),
    ("Heads up team: finance is moving us from QuickBooks to NetSuite on March 1.", "Ann",
     {("Ann", "STOPPED_USING", "QuickBooks"), ("Ann", "USES", "NetSuite")}, set()),
    ("Hubby got a job at Accenture.", "Ann", {("Ann", "MARRIED_TO", "Ann's husband")}, set()),
    ("My wife Carmen went vegan back in October.", "Ann", {("Carmen", "DIET", "vegan")}, set()),
    # Transferred from one city to another; staying behind; an in-law opening a sentence; a pet that
    # arrived, named next.
    ("我表哥三月份要从武汉调去西安了。表嫂工作走不开，先留在武汉。", "王芳",
     {("王芳的表哥", "LIVES_IN", "西安"), ("王芳的表嫂", "LIVES_IN", "武汉")},
     {("王芳", "LIVES_IN", "武汉")}),
    ("他从销售部调到市场部了。", "王芳", set(), {("王芳", "LIVES_IN", "市场部")}),
    ("我家新来了只金毛，叫栗子。", "王芳", {("王芳", "HAS_PET", "栗子")}, set()),
    # "who" is the person right before it.
    ("Their new CISO Monique Ferris will join — she replaced Alan Cross, who retired in August.", "Ann",
     {("Alan Cross", "STATUS", "retired"), ("Monique Ferris", "HAS_ROLE", "CISO")},
     {("Monique Ferris", "STATUS", "retired")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_people_together_roles_and_rides(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_an_organisation_jieba_cut_into_characters_is_named_whole(extractor: BuiltinExtractor) -> None:
    """鼎/信/物流: two single characters before an industry word open an organisation's name."""
    result = extractor.extract_text("客诉｜鼎信物流：上个月换的那批手持终端老死机。", actor="王芳")
    assert ("鼎信物流", "organisation") in {(e.name, e.type) for e in result.entities}
    quiet = extractor.extract_text("我们的物流很好。", actor="王芳")
    assert not [e for e in quiet.entities if e.type == "organisation"]
