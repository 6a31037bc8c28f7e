"""What a budget, a price or a date is about (a project, a product's edition, a team), and the
subjects and objects that are not what they seem (someone met at an event, a denied role, a title
in a signature): sentences written for these tests."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # A project named in the sentence holds its budget, date and meeting, not its customer or the speaker.
    ("鼎新电子的设备更新项目，老板娘说总预算不超过六十万，方案月底前要交给她。", "周宁",
     {("鼎新电子设备更新项目", "BUDGET", 600000)},
     {("鼎新电子", "BUDGET", 600000), ("周宁", "BUDGET", 600000)}),
    ("拜访启明光电，IT负责人葛伟确认机房扩容项目预算80万。", "周宁",
     {("机房扩容项目", "BUDGET", 800000)}, {("启明光电", "BUDGET", 800000)}),
    ("@全体 周四上午10点凯泓商业的陆总过来，谈智慧停车项目二期，这期他们预算给了60w左右。", "周宁",
     {("智慧停车项目二期", "BUDGET", 600000)}, {("凯泓商业", "BUDGET", 600000)}),
    ("南湖文旅小镇导视项目的预算其实是68万。", "周宁", {("南湖文旅小镇导视项目", "BUDGET", 680000)}, set()),
    ("Notes – Juniper Ridge HOA portal: go-live moved from July 8 to July 22; budget stays at $36k.", "Lena",
     {("Juniper Ridge HOA portal", "BUDGET", 36000)}, {("Lena", "BUDGET", 36000)}),
    ("CRM note – Quillfeather Publishing: budget for the DAM rollout is $95k.", "Lena",
     {("DAM rollout", "BUDGET", 95000)}, {("Quillfeather Publishing", "BUDGET", 95000)}),
    ("Kickoff for the Ironbridge Logistics route-optimisation project is March 25 at 9:30.", "Lena",
     {("Ironbridge Logistics route-optimisation project", "MEETING_AT", "2024-03-25 09:30")},
     {("Lena", "MEETING_AT", "2024-03-25 09:30")}),
    # A product's edition is the product's (its price and expiry are not those of "专业版").
    ("钉钉专业版年底到期，续费报价从2.4万涨到3.1万。", "钱鹏", {("钉钉专业版", "PRICE", 31000)},
     {("专业版", "PRICE", 31000)}),
    # A team said as the subject uses and stops its tools (not the writer).
    ("设计组下个月起不再用蓝湖了，交付统一走Figma。", "鲁婧",
     {("设计组", "STOPPED_USING", "蓝湖"), ("设计组", "USES", "Figma")}, {("鲁婧", "USES", "Figma")}),
    # Someone met at an event does not work there; "working with" a team is no employment.
    ("Met Lisa Park at SaaStr — she runs marketing at Hooli.", "Ann", {("Lisa Park", "WORKS_AT", "Hooli")},
     {("Lisa Park", "WORKS_AT", "SaaStr")}),
    ("Yesterday I met Tom Hale at Dreamforce.", "Ann", set(), {("Tom Hale", "WORKS_AT", "Dreamforce")}),
    ("I talked to Dana Lee at Acme yesterday.", "Ann", {("Dana Lee", "WORKS_AT", "Acme")}, set()),
    ("I love working with the Greenleaf team.", "Ann", set(), {("Ann", "WORKS_AT", "Greenleaf")}),
    # A role denied ("已经不是…的X了") is left, not held.
    ("李明已经不是华为的销售经理了。", "马丽",
     {("李明", "LEFT_ROLE", "销售经理")}, {("李明", "HAS_ROLE", "销售经理")}),
    ("王建国已经不是星河的IT总监了，现在是他们的CIO。", "马丽",
     {("王建国", "LEFT_ROLE", "IT总监"), ("王建国", "HAS_ROLE", "CIO")}, {("王建国", "HAS_ROLE", "IT总监")}),
    # A meeting one will miss is not one's meeting, nor "不" what one attends.
    ("Can't make standup today, kid is sick.", "Zoey", set(), {("Zoey", "MEETING_AT", "2024-03-13")}),
    ("明天的周会我参加不了。", "Zoey", set(), {("Zoey", "ATTENDED", "不"), ("Zoey", "PLANS_TO", "不")}),
    # Objects: a chat filler is no part of one, a month alone is none, a task is no project.
    ("I'm allergic to peanuts btw", "Ann",
     {("Ann", "ALLERGIC_TO", "peanuts")}, {("Ann", "ALLERGIC_TO", "peanuts btw")}),
    ("华美的客户我已经不负责了，四月份交给小刘了。", "冯涛", set(), {("小刘", "RESPONSIBLE_FOR", "四月份")}),
    ("小金负责API迁移。", "冯涛", {("小金", "RESPONSIBLE_FOR", "API迁移")}, {("小金", "ASSIGNED_TO", "API")}),
    # Who works where, said as an apposition: "<name> (<role> at <org>)", "the <role> of <org>, <name>".
    ("I spoke with Peter Walsh (IT Director at Fabrikam) today.", "Ann",
     {("Peter Walsh", "WORKS_AT", "Fabrikam"), ("Peter Walsh", "HAS_ROLE", "IT Director")}, set()),
    ("The CEO of Initech, Bill Lumbergh, called.", "Ann",
     {("Bill Lumbergh", "WORKS_AT", "Initech"), ("Bill Lumbergh", "HAS_ROLE", "CEO")}, set()),
    ("Sunrise Bakery's owner, Ruby Ross, wants a quote.", "Ann",
     {("Ruby Ross", "WORKS_AT", "Sunrise Bakery"), ("Ruby Ross", "HAS_ROLE", "owner")}, set()),
    ("My sister's husband, Tom Hale, is visiting.", "Ann", set(), {("Tom Hale", "WORKS_AT", "Ann's sister")}),
    ("朝阳烘焙的老板周丽想要报价。", "马丽", {("周丽", "WORKS_AT", "朝阳烘焙")}, set()),
    # Both parents named at once: what is said of them is said of each, and each is the speaker's parent.
    ("My parents live in Pune and they're coming to stay with us.", "Dev",
     {("Dev's mom", "LIVES_IN", "Pune"), ("Dev's dad", "LIVES_IN", "Pune"), ("Dev", "CHILD_OF", "Dev's dad")},
     {("Dev", "LIVES_IN", "Pune")}),
    ("我爸妈都喜欢钓鱼。", "黄磊", {("黄磊的妈妈", "LIKES", "钓鱼"), ("黄磊的爸爸", "LIKES", "钓鱼")}, set()),
    ("Our parents' evening is on Friday.", "Dev", set(), {("Dev's dad", "MEETING_AT", "2024-03-15")}),
    # A payment sent is paid; "Enterprises" ends a firm's name, whoever's first name begins it.
    ("Vandelay Industries sent payment of $3,250 for April.", "Ann",
     {("Vandelay Industries", "PAID", 3250)}, set()),
    ("Wayne Enterprises uses Salesforce for their CRM.", "Ann",
     {("Wayne Enterprises", "USES", "Salesforce")}, set()),
    # Two customers' projects of one name stay two (each is named with its owner).
    ("华润集团的设备更新项目预算八十万，鼎新电子的设备更新项目预算六十万。", "王磊",
     {("华润集团设备更新项目", "BUDGET", 800000), ("鼎新电子设备更新项目", "BUDGET", 600000)},
     {("设备更新项目", "BUDGET", 800000)}),
    # A role held before ("前", "formerly") is no employer, nor one the speaker only contacted or serves.
    ("阿里的前CTO王坚现在是我们的顾问。", "王磊", set(),
     {("王坚", "WORKS_AT", "阿里"), ("王坚", "HAS_ROLE", "CTO")}),
    ("Rachel Green (formerly Marketing Manager at Bloom & Co) is now freelancing.", "Sam", set(),
     {("Marketing Manager", "WORKS_AT", "Bloom & Co"), ("Rachel Green", "WORKS_AT", "Bloom & Co")}),
    ("I pinged the VP of Sales at Globex about the renewal.", "Sam", set(), {("Sam", "WORKS_AT", "Globex")}),
    ("I'm the account manager for Globex.", "Sam", set(), {("Sam", "WORKS_AT", "Globex")}),
    ("I'm the head of IT at Contoso.", "Sam", {("Sam", "WORKS_AT", "Contoso")}, set()),
    ("Lisa Park was never the VP of Sales at Globex.", "Sam", set(), {("Lisa Park", "WORKS_AT", "Globex")}),
    ("Caught up with Mark Diaz at the Gartner summit.", "Sam", set(), {("Mark Diaz", "WORKS_AT", "Gartner")}),
    # Someone else's parents are neither that person nor the speaker's parents.
    ("Sarah's parents live in Denver.", "Sam", set(), {("Sarah", "LIVES_IN", "Denver")}),
    ("My parents-in-law live in Kyoto.", "Sam", set(), {("Sam", "LIVES_IN", "Kyoto")}),
    ("我老婆的父母住在南京。", "王磊", set(), {("王磊的老婆", "LIVES_IN", "南京")}),
    ("小王的爸妈住在杭州。", "王磊", set(), {("小王", "LIVES_IN", "杭州")}),
    # What a condition supposes has not happened.
    ("如果宏远集团在30号之前签约，我们可以给他们打八五折。", "王磊", set(),
     {("宏远集团", "DISCOUNT", "八五折")}),
    ("如果从7月起我负责华东区，就得常出差。", "王磊", set(), {("王磊", "RESPONSIBLE_FOR", "华东区")}),
    ("If I become team lead starting in July, I'll hire two people.", "Sam", set(),
     {("Sam", "HAS_ROLE", "team lead")}),
    # "head of IT" is a role, not a role at a firm called IT; 老板娘 is one role; a filler is no object.
    ("Contoso's new head of IT, Mark Chen, starts next month.", "Sam",
     {("Mark Chen", "HAS_ROLE", "head of IT"), ("Mark Chen", "WORKS_AT", "Contoso")},
     {("Mark Chen", "HAS_ROLE", "head")}),
    ("宏达的老板娘周丽也在会上。", "王磊", {("周丽", "HAS_ROLE", "老板娘")}, {("周丽", "HAS_ROLE", "老板")}),
    ("I don't love working with the Contoso team, honestly.", "Sam",
     {("Sam", "DISLIKES", "working with the Contoso team")}, set()),
    # Found in fresh messages: fragments of words as names, a rule against meetings, a bare "contract".
    ("客户反映小程序下单后收不到确认短信。", "周宁", set(), {("小程", "ORDERED", "后收不到确认短信")}),
    ("欢迎新同事李婷加入财务部担任会计主管，她之前在普华永道工作了6年。", "周宁",
     {("李婷", "MEMBER_OF", "财务部")}, {("任会计", "LEFT_ORGANISATION", "普华永道")}),
    ("As discussed, the price is $29 per user per month.", "Mia", set(), {("As", "PRICE", 29)}),
    ("部门会议：周五下午统一不安排会议。", "刘洋", set(), {("刘洋", "MEETING_AT", "2024-03-15")}),
    ("合同5月31日到期。", "周宁", set(), {("合同", "EXPIRES_ON", "2024-05-31")}),
    # the signed contract's amount (a deal's price is the deal's)
    ("东方酒店集团签约了！合同金额68万。", "周宁",
     {("东方酒店集团合同", "PRICE", 680000)}, {("酒店集团", "PRICE", 680000)}),
    ("我调去大客户部了。", "周宁", {("周宁", "MEMBER_OF", "大客户部")}, {("周宁", "MEMBER_OF", "客户部")}),
    ("Carol Diaz moved from Bluefin to Orion Shipping as VP Operations.", "Mia",
     {("Carol Diaz", "WORKS_AT", "Orion Shipping"), ("Carol Diaz", "LEFT_ORGANISATION", "Bluefin")},
     {("Carol Diaz", "MOVED_FROM", "Bluefin")}),
    ("Please find the invoice attached.\n\nRegards,\nAccounts Payable\nNorthstar Marine", "AP", set(),
     {("Accounts Payable", "HAS_ROLE", "Northstar Marine"),
      ("Accounts Payable", "WORKS_AT", "Northstar Marine")}),
    # Someone else's meeting, an order the addressee placed, a discount only asked for, a day at home.
    ("Demo went well. Decision expected after their board meeting on Oct 14.", "Mia", set(),
     {("Mia", "MEETING_AT", "2024-10-14")}),
    ("Let's meet Friday at 3pm.", "Mia", {("Mia", "MEETING_AT", "2024-03-15 15:00")}, set()),
    ("Dear Ms. Alvarez, we are pleased to confirm your order of 3 pallets of A4 copy paper.", "Papyrus",
     set(),
     {("Papyrus", "ORDERED", "A4")}),
    ("南京金陵医院要求打九折，我说需要请示一下钱总。", "周宁", set(), {("金陵医院", "DISCOUNT", "九折")}),
    ("明天我在家办公，家里修水管。", "周宁", set(), {("周宁", "WORKS_FROM", "家")}),
    ("I work from home on Fridays.", "Mia", {("Mia", "WORKS_FROM", "home")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_what_values_are_about_and_who_is_meant(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


def test_a_sentence_opening_the_is_no_project_name(extractor: BuiltinExtractor) -> None:
    """ "The tank expansion has made them so happy": "The" capitalised only opens the sentence."""

    def names(text: str) -> set[str]:
        return {e.name for e in extractor.extract_text(text, actor="Ann").entities}

    assert "tank expansion" not in names("The tank expansion has made them so happy.")
    assert "Denver rollout" in names("The Denver rollout starts Monday.")
