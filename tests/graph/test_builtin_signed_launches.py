"""Deals said to be signed, launches said by their usual names (上线定在…, "go-live moved to…"), one tool
for another ("from Zoom to Whereby"), and homes moved to or bought: sentences written for these tests;
each case names the facts that must and must not be read."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Case, Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[Case] = [
    # The customer signed the deal: its id, else the deal its words say by kind.
    ("好消息！安达电气签了，合同号AD-4471，90台变频器。", "周宁", {("安达电气", "SIGNED", "AD-4471")}, set()),
    ("跟华信重工的框架合同今天签下来了，三年期。", "周宁",
     {("华信重工", "SIGNED", "华信重工框架合同")}, set()),
    ("紫光游戏续约谈下来了，两年总价88万。", "周宁", {("紫光游戏", "SIGNED", "紫光游戏续约")}, set()),
    ("Closed Brookline Dental this morning 🎉 BD-5520: 12 sterilizers at $3,400 each.", "Ann",
     {("Brookline Dental", "SIGNED", "BD-5520")}, set()),
    ("Harlow Legal renewed their document-review license for two years.", "Ann",
     {("Harlow Legal", "SIGNED", "Harlow Legal document-review license")}, set()),
    ("Acme signed the NDA yesterday.", "Ann", {("Acme", "SIGNED", "NDA")}, set()),
    # Signed with a supplier: the speaker's side signed.
    ("我们跟供应商宏达五金的年度框架协议昨天签了。", "周宁", {("周宁", "SIGNED", "宏达五金年度框架协议")},
     {("宏达五金", "SIGNED", "宏达五金年度框架协议")}),
    # Not signed yet, only supposed, or only a price agreed: nothing.
    ("明德教育的续约价谈下来了，每年四万二。", "周宁", set(), {("明德教育", "SIGNED", "明德教育续约")}),
    ("安达电气的合同还没签，下周再催。", "周宁", set(), {("安达电气", "SIGNED", "安达电气合同")}),
    ("如果安达电气签了合同，我们就备货。", "周宁", set(), {("安达电气", "SIGNED", "安达电气合同")}),
    ("Brookline Dental hasn't signed the contract yet.", "Ann", set(),
     {("Brookline Dental", "SIGNED", "Brookline Dental contract")}),
    ("I signed up for a salsa class.", "Ann", set(), {("Ann", "SIGNED", "salsa class")}),
    # No customer's deal: a home or a job signed, a letter of intent, a ticket closed, a company of
    # another sentence, a contract signed next month.
    ("跟安达电气吃了顿饭，回来把房租合同签了。", "周宁", set(), {("安达电气", "SIGNED", "安达电气房租合同")}),
    ("老婆在安达电气上班。她今天签了劳动合同。", "周宁", set(), {("安达电气", "SIGNED", "安达电气劳动合同")}),
    ("安达电气签了意向书，正式合同下个月签。", "周宁", set(), {("安达电气", "SIGNED", "安达电气合同")}),
    ("I closed Brookline Dental's support ticket BD-5520.", "Ann", set(),
     {("Brookline Dental", "SIGNED", "BD-5520")}),
    ("Our laptops come from Dell Technologies. Anyway, we signed the lease for the new office today.", "Ann",
     set(), {("Dell Technologies", "SIGNED", "Dell Technologies lease")}),
    # A unit price said per tonne, box or square metre, changed or not.
    ("供应商华丰铝业通知，下个月起6061铝板每吨涨到2.3万。", "周宁", {("华丰铝业", "PRICE", 23000)}, set()),
    ("我每天走一万步。", "周宁", set(), {("周宁", "PRICE", 10000)}),
    ("Costco的矿泉水每箱24瓶。", "周宁", set(), {("Costco", "PRICE", 24)}),
    # A project's launch: 上线定在…, 上线时间定在…, "go-live moved from … to …", "target go-live …".
    ("会议纪要：云帆物流TMS升级项目，上线定在5月6日；下次评审周三。", "周宁",
     {("云帆物流TMS升级项目", "LAUNCH_DATE", "2024-05-06")}, set()),
    ("会议纪要（海川制造MES项目周会）：①上线时间定在6月3号；②终端由华测供货。", "周宁",
     {("海川制造MES项目", "LAUNCH_DATE", "2024-06-03")}, set()),
    ("Notes on Project Kestrel: go-live moved from April 8 to April 22; budget unchanged.", "Ann",
     {("Project Kestrel", "LAUNCH_DATE", "2024-04-22")}, {("Project Kestrel", "LAUNCH_DATE", "2024-04-08")}),
    ("Kicked off Project Beacon today. Target go-live June 10.", "Ann",
     {("Project Beacon", "LAUNCH_DATE", "2024-06-10")}, set()),
    # Not launched: denied, supposed, or going live on a platform; a go-live of no named project is nobody's.
    ("Project Atlas will not go live on April 14.", "Ann", set(),
     {("Project Atlas", "LAUNCH_DATE", "2024-04-14")}),
    ("If Project Kestrel goes live on April 8, I'll take a week off.", "Ann", set(),
     {("Project Kestrel", "LAUNCH_DATE", "2024-04-08")}),
    ("The Atlas team goes live on Twitch at 5pm for the demo.", "Ann", set(),
     {("Atlas", "LAUNCH_DATE", "2024-03-13 17:00")}),
    ("CRM项目不会在4月10日上线了。", "周宁", set(), {("CRM项目", "LAUNCH_DATE", "2024-04-10")}),
    ("CRM项目会在4月10日上线。", "周宁", {("CRM项目", "LAUNCH_DATE", "2024-04-10")}, set()),
    ("I'm going live on Instagram at 3pm.", "Ann", set(), {("Ann", "LAUNCH_DATE", "2024-03-13 15:00")}),
    ("我今天上线了，晚点聊。", "周宁", set(), {("周宁", "LAUNCH_DATE", "2024-03-13")}),
    # One tool for another: "from A to B" (从A换到B) stops A and uses B, whatever B is called.
    ("Heads up: from Monday we're moving standups from Zoom to Whereby.", "Ann",
     {("Ann", "STOPPED_USING", "Zoom"), ("Ann", "USES", "Whereby")}, set()),
    ("IT notice: on April 2 we switch password managers from LastPass to Keeper.", "Ann",
     {("Ann", "STOPPED_USING", "LastPass"), ("Ann", "USES", "Keeper")}, set()),
    ("我们组从钉钉换到飞书了。", "周宁",
     {("周宁", "STOPPED_USING", "钉钉"), ("周宁", "USES", "飞书")}, set()),
    ("If we switch from Slack to Teams, I'll quit.", "Ann", set(), {("Ann", "USES", "Teams")}),
    ("We decided not to switch from Zoom to Teams.", "Ann", set(),
     {("Ann", "USES", "Teams"), ("Ann", "STOPPED_USING", "Zoom")}),
    ("We tried moving from Zoom to Teams but rolled back.", "Ann", set(), {("Ann", "USES", "Teams")}),
    ("I switched teams from Payments to Search.", "Ann", set(), {("Ann", "USES", "Search")}),
    ("My son is moving from Lincoln Elementary to Jefferson Middle.", "Ann", set(),
     {("Ann's son", "USES", "Jefferson Middle")}),
    # A tool given up is not who uses the next one.
    ("运营组下个月起不再用石墨了，文档统一走飞书。", "周宁",
     {("运营组", "USES", "飞书"), ("运营组", "STOPPED_USING", "石墨")}, {("石墨", "USES", "飞书")}),
    ("We moved from Austin to Denver.", "Ann", {("Ann", "LIVES_IN", "Denver")}, {("Ann", "USES", "Denver")}),
    # Moving from one city to another, and a home bought, say where one lives.
    ("We're moving from Tacoma to Boise in May.", "Ann", {("Ann", "LIVES_IN", "Boise")}, set()),
    ("We finally bought a house in Raleigh!", "Ann", {("Ann", "LIVES_IN", "Raleigh")}, set()),
    ("If we ever bought a house in Napa, I'd garden all day.", "Ann", set(), {("Ann", "LIVES_IN", "Napa")}),
    ("Our company is moving from Portland to Austin.", "Ann", set(), {("Ann", "LIVES_IN", "Austin")}),
    ("We're thinking of moving from Portland to Austin.", "Ann", set(), {("Ann", "LIVES_IN", "Austin")}),
    # An order's figures, but not another order's nor a list price.
    ("Order SO-4400 is for the monitors. The keyboards cost $40 each, we'll order those later.", "Ann", set(),
     {("SO-4400", "PRICE", 40)}),
    ("Order #SO-12345 was cancelled. We'll reorder 30 units at $22 next week.", "Ann", set(),
     {("SO-12345", "QUANTITY", 30)}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_signed_deals_launches_tools_and_homes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
