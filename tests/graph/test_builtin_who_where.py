"""Who works where and where people live: a customer's contact, someone of the organisation the
message is about, a handover, a leaving said with the employer first, and the homes and offices
said in chat and CRM notes (sentences written for these tests; each case names the facts that must
and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A customer's contact works there (a role before the name is no part of it).
    ("CRM：恒泰物流的对接人换成采购经理孙丽了。", "王芳",
     {("恒泰物流", "CONTACT", "孙丽"), ("孙丽", "WORKS_AT", "恒泰物流"), ("孙丽", "HAS_ROLE", "采购经理")},
     {("恒泰物流", "CONTACT", "采购经理孙丽")}),
    ("Our contact at Umbrella Health is now Kevin Ortiz.", "Ann",
     {("Umbrella Health", "CONTACT", "Kevin Ortiz"), ("Kevin Ortiz", "WORKS_AT", "Umbrella Health")}, set()),
    # The change said after a denial; a supplier's salesperson; 对接的 with or without 还是.
    ("博瑞制药的对接人不是刘经理了，换成新来的采购总监Emily Zhou。", "王芳",
     {("博瑞制药", "CONTACT", "Emily Zhou"), ("Emily Zhou", "WORKS_AT", "博瑞制药")},
     {("博瑞制药", "CONTACT", "刘经理")}),
    ("供应商永鑫铝业发通知了，下个月起涨价。另外他们业务员换成了小蒋。", "王芳",
     {("永鑫铝业", "CONTACT", "小蒋"), ("小蒋", "WORKS_AT", "永鑫铝业")}, set()),
    ("诚信会计事务所下个月搬家。他们财务那边对接的还是陈会计。", "王芳",
     {("诚信会计事务所", "CONTACT", "陈会计"), ("陈会计", "WORKS_AT", "诚信会计事务所")},
     {("会计事务所", "CONTACT", "陈会计")}),
    ("启明教育取消了这单，对接的刘主任说预算被砍了。", "王芳",
     {("启明教育", "CONTACT", "刘主任"), ("刘主任", "WORKS_AT", "启明教育")}, set()),
    # A former contact is no contact.
    ("恒泰物流原来对接的马建军调去管仓储了。", "王芳", set(), {("恒泰物流", "CONTACT", "马建军")}),
    # 他们 + a department or role + a name: someone of the organisation talked about, not of its department.
    ("华信证券的合同11月30号到期，得找他们IT部的吕经理聊。", "王芳", {("吕经理", "WORKS_AT", "华信证券")},
     {("吕经理", "WORKS_AT", "IT部"), ("吕经理", "WORKS_AT", "他们IT部")}),
    ("星辰教育现在用腾讯会议。他们IT的小罗说明年想换。", "王芳", {("小罗", "WORKS_AT", "星辰教育")}, set()),
    ("奥博体育明年的预算定了，最后拍板的是他们CMO林峰。", "王芳",
     {("林峰", "WORKS_AT", "奥博体育"), ("林峰", "HAS_ROLE", "CMO")}, set()),
    ("他们都说好。", "王芳", set(), {("都说", "WORKS_AT", "他们")}),
    # Joined, said with how long ago; the boss named after 直属领导; a new post after a move.
    ("入职乐途科技满一周啦～我负责海外广告投放，直属领导Kevin是新加坡人。", "王芳",
     {("王芳", "WORKS_AT", "乐途科技"), ("王芳", "REPORTS_TO", "Kevin")},
     {("王芳", "WORKS_AT", "职乐途科技")}),
    ("HR通知：胡静即日起从市场部调到产品部，任高级产品经理，汇报给张毅。", "王芳",
     {("胡静", "MEMBER_OF", "产品部"), ("胡静", "HAS_ROLE", "高级产品经理"), ("胡静", "REPORTS_TO", "张毅")},
     set()),
    ("周敏下个月起升任华南区销售总监。", "王芳", {("周敏", "HAS_ROLE", "华南区销售总监")},
     {("周敏", "HAS_ROLE", "销售总监"), ("王芳", "HAS_ROLE", "华南区销售总监")}),
    # The speaker takes a customer on from the one who held it; 另外 is no customer.
    ("各位，华东区大客户从7月1号起由我来跟，之前负责的老陈调去北京分公司了。", "王芳",
     {("王芳", "RESPONSIBLE_FOR", "华东区大客户"), ("老陈", "UNASSIGNED_FROM", "华东区大客户")},
     {("老陈", "LEFT_ORGANISATION", "北京分公司"), ("王芳", "RESPONSIBLE_FOR", "华东区大")}),
    ("物业费调整为每平米6.5元，另外以后由我负责对接。", "王芳", set(), {("王芳", "RESPONSIBLE_FOR", "另外")}),
    # Two customers handed over, joined by 和 (which jieba glues to the second name); a time word is
    # no customer.
    ("我这个月底就离职了，宏远电气和锐达机械这两个客户交接给小冯。", "王芳",
     {("小冯", "RESPONSIBLE_FOR", "宏远电气"), ("小冯", "RESPONSIBLE_FOR", "锐达机械"),
      ("王芳", "UNASSIGNED_FROM", "锐达机械")}, {("小冯", "RESPONSIBLE_FOR", "和锐达机械")}),
    ("周报模板也挪过去了，以后由小袁维护。", "王芳", set(), {("小袁", "RESPONSIBLE_FOR", "以后")}),
    # A new hire's role said alone and the department they are put in; what one moves on to (a
    # project is an assignment); 贺强调去 is no speaker's move (jieba reads 贺 强调).
    ("HR同步：周浩下周一入职，高级测试工程师，放在质量部。", "王芳",
     {("周浩", "HAS_ROLE", "高级测试工程师"), ("周浩", "MEMBER_OF", "质量部")}, set()),
    ("海悦酒店这个客户以后由小吴负责哈，我下周起转去做渠道了。", "王芳",
     {("王芳", "RESPONSIBLE_FOR", "渠道"), ("小吴", "RESPONSIBLE_FOR", "海悦酒店")}, set()),
    ("深圳仓储项目交给小陈了，我转去做CRM升级项目。", "王芳", {("王芳", "ASSIGNED_TO", "CRM升级项目")},
     {("王芳", "RESPONSIBLE_FOR", "CRM升级项目")}),
    ("从今天起华南区销售经理由我接任，贺强调去做渠道拓展了。", "王芳", set(),
     {("王芳", "RESPONSIBLE_FOR", "渠道拓展")}),
    # A leaving said after the employer and the person ends that employer, not the one they go to.
    ("安居物业的IT经理钱伟离职了，听说跳槽到鼎新物业。", "王芳",
     {("钱伟", "LEFT_ORGANISATION", "安居物业")},
     {("钱伟", "WORKS_AT", "安居物业"), ("钱伟", "LEFT_ORGANISATION", "鼎新物业"),
      ("钱伟", "HAS_ROLE", "经理")}),
    # 参加下 is 参加一下: nothing attended.
    ("周四凯泓商业的陆总过来，销售和技术都参加下。", "王芳", {("陆总", "WORKS_AT", "凯泓商业")},
     {("陆总", "ATTENDED", "下"), ("凯泓商业", "ATTENDED", "下")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_who_works_where_in_business_messages(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


PLACES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A district jieba takes for a name (闵行/nr) or a proper noun (回龙观/nz) after 住在 is a place.
    ("奶奶对青霉素过敏。她现在跟我们一起住在闵行。", "王芳", {("王芳的奶奶", "LIVES_IN", "闵行")}, set()),
    ("不是望京哈，我其实住在回龙观，上次说错了。", "王芳", {("王芳", "LIVES_IN", "回龙观")}, set()),
    ("我在腾讯工作。", "王芳", {("王芳", "WORKS_AT", "腾讯")}, {("王芳", "LIVES_IN", "腾讯")}),
    # 搬来 is moving in; being somewhere (都在, 也在, 现在在) says no home.
    ("我妈上个月从老家衡阳搬来杭州了。", "王芳",
     {("王芳的妈妈", "LIVES_IN", "杭州"), ("王芳的妈妈", "MOVED_FROM", "衡阳")}, set()),
    ("我现在在北京出差。", "王芳", set(), {("王芳", "LIVES_IN", "北京")}),
    ("货都在宁波。", "王芳", set(), {("王芳", "LIVES_IN", "宁波")}),
    ("我现在在北京，明天回上海。", "王芳", set(), {("王芳", "LIVES_IN", "北京")}),
    ("王总今天也在深圳。", "王芳", set(), {("王总", "LIVES_IN", "深圳")}),
    ("我想住在回龙观，离公司近。", "王芳", set(), {("王芳", "LIVES_IN", "回龙观")}),
    # Where an organisation is: its head office, its address said whole.
    ("客户资料更新：嘉禾新材总部在宁波，苏州那个是他们的分厂。", "王芳", {("嘉禾新材", "LIVES_IN", "宁波")},
     {("嘉禾新材", "LIVES_IN", "苏州")}),
    ("诚信会计事务所下个月搬家，新地址在滨江区江南大道1888号。", "王芳",
     {("诚信会计事务所", "LIVES_IN", "滨江区江南大道1888号")}, {("诚信会计事务所", "LIVES_IN", "滨江区")}),
    # 总部 and 地址 followed by no place; 公司总部 names no 司总.
    ("总部在考虑要不要砍预算。", "王芳", set(), {("王芳", "LIVES_IN", "考虑要不要砍预算")}),
    ("我们公司总部在宁波。", "王芳", set(), {("司总", "LIVES_IN", "宁波")}),
    ("我的收货地址是公司前台。", "王芳", set(), {("王芳", "LIVES_IN", "公司前台")}),
    ("恒泰物流的新地址在哪？", "王芳", set(), {("恒泰物流", "LIVES_IN", "哪")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), PLACES, ids=[c[0][:30] for c in PLACES])
def test_where_people_and_organisations_are(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
