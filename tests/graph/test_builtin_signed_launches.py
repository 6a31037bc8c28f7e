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
    # A project's launch: 上线定在…, 上线时间定在…, "go-live moved from … to …", "target go-live …".
    ("会议纪要：云帆物流TMS升级项目，上线定在5月6日；下次评审周三。", "周宁",
     {("云帆物流TMS升级项目", "LAUNCH_DATE", "2024-05-06")}, set()),
    ("会议纪要（海川制造MES项目周会）：①上线时间定在6月3号；②终端由华测供货。", "周宁",
     {("海川制造MES项目", "LAUNCH_DATE", "2024-06-03")}, set()),
    ("Notes on Project Kestrel: go-live moved from April 8 to April 22; budget unchanged.", "Ann",
     {("Project Kestrel", "LAUNCH_DATE", "2024-04-22")}, {("Project Kestrel", "LAUNCH_DATE", "2024-04-08")}),
    ("Kicked off Project Beacon today. Target go-live June 10.", "Ann",
     {("Project Beacon", "LAUNCH_DATE", "2024-06-10")}, set()),
    # Going live on a platform is no launch, and a go-live without a named project is nobody's.
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
    # A tool given up is not who uses the next one.
    ("运营组下个月起不再用石墨了，文档统一走飞书。", "周宁",
     {("周宁", "USES", "飞书")}, {("石墨", "USES", "飞书")}),
    ("We moved from Austin to Denver.", "Ann", {("Ann", "LIVES_IN", "Denver")}, {("Ann", "USES", "Denver")}),
    # Moving from one city to another, and a home bought, say where one lives.
    ("We're moving from Tacoma to Boise in May.", "Ann", {("Ann", "LIVES_IN", "Boise")}, set()),
    ("We finally bought a house in Raleigh!", "Ann", {("Ann", "LIVES_IN", "Raleigh")}, set()),
    ("If we ever bought a house in Napa, I'd garden all day.", "Ann", set(), {("Ann", "LIVES_IN", "Napa")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_signed_deals_launches_tools_and_homes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
