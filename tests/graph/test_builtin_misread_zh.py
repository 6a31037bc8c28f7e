"""Chinese statements the builtin extractor read as facts they do not state, from the wrong facts readers
found in notes, reports and chats: a person jieba cuts after the surname, a pet's operation and age given
to its owner, a time read as a pet's name, a report's title read as its writer's employer, 回复 and 回归
read as going back, a move about to happen (要…了) dated in the past, a nickname in brackets read as the
subject; and roles and employers readers found unread: a name set off by spaces (由 蒋磊 担任), an
appointment to a qualified role (晋升为内容主管), a role then who holds it (新负责人叫罗佳琪), the firm
whose role holder one visits (拜访了恒拓精密的采购经理刘建华) (sentences written for these tests; each
case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, fact, read, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # 吴/nr 婷婷/z: a surname jieba tags alone and a given name it does not know, before a verb.
    ("澜星这边吴婷婷升职了，现在是采购部副经理。", "赵一鸣",
     {("吴婷婷", "HAS_ROLE", "采购部副经理")}, {("赵一鸣", "HAS_ROLE", "采购部副经理")}),
    # A pet named before an operation or an age is the one it happened to; a time is no pet's name.
    ("我家猫 橘子 昨天做了绝育手术，花了800多", "李娜",
     {("李娜", "HAS_PET", "橘子"), ("橘子", "STATUS", "绝育手术")}, {("李娜", "STATUS", "绝育手术")}),
    ("我家的猫昨天做了绝育手术", "李娜", set(),
     {("李娜", "HAS_PET", "昨天"), ("李娜", "STATUS", "绝育手术")}),
    ("我们家那只橘猫叫大福，今年三岁了", "张伟", {("大福", "AGE", 3)}, {("张伟", "AGE", 3)}),
    ("我爸上周做了心脏搭桥手术", "张伟", {("张伟的爸爸", "STATUS", "心脏搭桥手术")}, set()),  # control
    # A report's title opens the note; the writer after it works nowhere it names.
    ("周报 马超\n本周：\n- 金穗粮油下单了", "马超", set(), {("马超", "WORKS_AT", "周报")}),
    # control: a signature line
    ("云峰数据 客户经理 覃小川", "覃小川", {("覃小川", "WORKS_AT", "云峰数据")}, set()),
    # 回复 (a reply) and 回归测试 (a regression test) go back nowhere.
    ("产品回复Part 11合规预计在Q4版本支持。", "陈卓", set(), {("陈卓", "VISITED", "Part")}),
    ("登录模块回归测试发现3个P2 bug，已修复2个", "刘洋", set(), {("刘洋", "VISITED", "P2")}),
    ("上周回成都了。", "刘洋", {("刘洋", "VISITED", "成都")}, set()),  # control
    # A duty said by its verb alone, a plan of one character or a pointer to an attachment, is none.
    ("何晴负责对接。", "徐静", set(), {("何晴", "RESPONSIBLE_FOR", "对接")}),
    ("欧阳敏下个月开始休产假，期间由小彭负责", "沈佳", set(), {("小彭", "RESPONSIBLE_FOR", "期间")}),
    # control: 后端 is no "after"
    ("后端由老王（王建国）牵头，前端交给小刘。", "周宁", {("老王", "RESPONSIBLE_FOR", "后端")}, set()),
    ("鑫拓智能发了招标公告。我们这边准备投。", "张伟", set(), {("张伟", "PLANS_TO", "投")}),
    ("鑫拓第二批设备昨天到货了，比计划晚了大概一周", "张伟", set(), {("张伟", "PLANS_TO", "晚")}),
    ("实施周期调整到了4个月，详细计划见附件。", "周婷", set(), {("周婷", "PLANS_TO", "见附件")}),
    # A budget in a visit note is the customer's (named by its department too), not the writer's.
    ("拜访鼎宏科技采购部张总（张立伟），对方目前用的是金蝶。预算大概80万左右。", "王建国",
     {("鼎宏科技", "BUDGET", 800000), ("鼎宏科技", "USES", "金蝶")}, {("王建国", "BUDGET", 800000)}),
    ("我们今年的预算是50万。", "王建国", {("王建国", "BUDGET", 500000)}, set()),  # control
    # Someone else's meeting is not the writer's; the writer's own still is.
    ("刘经理说预算大概在80万左右，下周三他们内部开会讨论。", "王晓峰", set(),
     {("王晓峰", "MEETING_AT", "2024-03-20")}),
    ("日报：栖霞湾文旅这周在开董事会，公孙总说结果下周出。", "谢婉清", set(),
     {("谢婉清", "MEETING_AT", "2024-03-11")}),
    ("李总和我约了下周二开会。", "王晓峰", {("王晓峰", "MEETING_AT", "2024-03-19")}, set()),  # control
    ("明天跟李总开会。", "王晓峰", {("王晓峰", "MEETING_AT", "2024-03-14")}, set()),  # control: one met with
    ("约了客户下周二开会。", "王晓峰", {("王晓峰", "MEETING_AT", "2024-03-19")}, set()),  # control
    # With a unit price, a total is no price; a price drop neither; 下单价 is no order.
    ("闽侨贸易订了50套K7智能门锁，单价1280，总价64000。", "王晓峰",
     {("K7智能门锁", "PRICE", 1280)}, {("K7智能门锁", "PRICE", 64000)}),
    ("净水器X5价格保护期内降价了100，能补差价吗？下单价是1999。", "王晓峰", set(),
     {("净水器X5", "PRICE", 100), ("王晓峰", "ORDERED", "价是1999")}),
    # An action is no tool given up or used; what is smoked or drunk still is.
    ("小区充电桩装好了，终于不用跑外面充了", "黄丽", set(), {("黄丽", "STOPPED_USING", "跑外面充")}),
    ("@刘畅 我改的，改回去了，sorry", "欧明", set(), {("刘畅", "USES", "去")}),
    ("我戒烟半年了。", "黄丽", {("黄丽", "STOPPED_USING", "烟")}, set()),  # control
    # A full name in brackets after a familiar one is the subject.
    ("我从今天起正式接手华南区的客户，原负责人阿杰（梁杰）已调往北京分公司。", "钟晴",
     {("梁杰", "WORKS_AT", "北京分公司")}, {("阿杰", "WORKS_AT", "北京分公司")}),
    # A nickname in brackets after a full name is no subject of its own (as an organisation in brackets).
    ("跟进：杭州云栖科技的陈国栋（陈总）已经升为CEO。", "赵敏",
     {("陈国栋", "HAS_ROLE", "CEO")}, {("陈总", "HAS_ROLE", "CEO")}),
]  # fmt: skip


ROLES: list[Case] = [
    ("项目经理由 蒋磊 担任。", "张明远", {("蒋磊", "HAS_ROLE", "项目经理")}, set()),
    ("人力资源部 12月起由 方晓雯 担任负责人，我将转岗至集团HRBP。", "林嘉欣",
     {("方晓雯", "HAS_ROLE", "负责人")}, set()),
    ("卞晓东正式任命为前端组长", "高远", {("卞晓东", "HAS_ROLE", "前端组长")}, set()),
    ("何晴晋升为内容主管", "徐静", {("何晴", "HAS_ROLE", "内容主管")}, set()),
    ("蓝湾酒店集团的IT负责人换人了，原来的郑凯已离职，新负责人叫罗佳琪。", "周海涛",
     {("罗佳琪", "HAS_ROLE", "负责人")}, set()),
    ("新来的实习生叫 邹一凡，今天入职", "刘洋", {("邹一凡", "HAS_ROLE", "实习生")}, set()),
    ("我下个月去 凌云游戏 上班，做服务器开发", "张伟", {("张伟", "WORKS_AT", "凌云游戏")}, set()),
    ("今天拜访了恒拓精密的采购经理刘建华，他们目前用的是德森的MES系统。", "王晓峰",
     {("刘建华", "WORKS_AT", "恒拓精密"), ("王晓峰", "VISITED", "恒拓精密")}, set()),
    # A leaving with a plan in the next clause still happened; a question or a supposition did not.
    ("我辞职了，打算休息两个月再找，太累了", "李娜",
     {("李娜", "LEFT_ORGANISATION", None), ("李娜", "STATUS", "离职")}, set()),
    ("如果老板不加薪，我就辞职了", "李娜", set(), {("李娜", "LEFT_ORGANISATION", None)}),  # control
    # The customer a signed deal is named after, whatever jieba makes of its name; no modifier in it.
    ("恒拓合同签了！76.8万，分三期付款。", "王晓峰", {("恒拓", "SIGNED", "恒拓合同")}, set()),
    ("星澜正式合同签了！金额286万，分两年", "何明",
     {("星澜", "SIGNED", "星澜合同"), ("星澜合同", "PRICE", 2860000)},
     {("星澜正式", "SIGNED", "星澜正式合同")}),
    ("新的合同签了。", "王晓峰", set(), {("新的", "SIGNED", "新的合同")}),  # control
    # 了 that jieba joins to a brand (拜访/v 了鼎睿/l 科技/n) is no part of it.
    ("今天拜访了鼎睿科技的采购总监刘海峰，他们今年预算大概在80万左右。", "董倩",
     {("刘海峰", "WORKS_AT", "鼎睿科技")}, {("刘海峰", "WORKS_AT", "了鼎睿科技")}),
    ("我老公上个月从平安离职了。", "彭丽", {("彭丽的老公", "LEFT_ORGANISATION", "平安")}, set()),  # control
    # A note's account before a colon is the customer whose budget it gives; a title or a group is none.
    ("鼎睿：一期日活约120人，客户满意。二期预算明年约30万（待定）。", "王建国",
     {("鼎睿", "BUDGET", 300000)}, {("王建国", "BUDGET", 300000)}),
    # control: a complaint's title is no account; the school that complains uses the lock
    ("客诉：新城中学反馈那批K8智能门锁老报E07错误。", "周宁", {("新城中学", "USES", "K8智能门锁")}, set()),
    ("见了王总的助理小李。", "王晓峰", {("小李", "HAS_ROLE", "助理")}, {("小李", "WORKS_AT", "王总")}),
    # control: "新的" is no part of a firm's name; "X的负责人是Y" stays what Y is responsible for
    ("见了恒越新的采购经理何志明。", "王思远", {("何志明", "HAS_ROLE", "采购经理")},
     {("何志明", "WORKS_AT", "恒越新")}),
    ("易达快递华北大区的负责人是孔亮。", "常昊", set(), {("孔亮", "HAS_ROLE", "负责人")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES + ROLES)
def test_misread_statements(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[tuple[str, str, object]], unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("我们家要搬去深圳了，4月份走", "2024-04"),  # 要…了: about to move, dated by the clause after
        ("4月份我们家要搬去深圳了", "2024-04"),
        ("我们家上个月搬去深圳了", "2024-02"),  # control: done
    ],
)
def test_a_move_about_to_happen_is_dated_ahead(extractor: BuiltinExtractor, text: str, month: str) -> None:
    moved = fact(read(extractor, text, actor="陈晓"), "LIVES_IN")
    assert moved.valid_at is not None and moved.valid_at.strftime("%Y-%m") == month
