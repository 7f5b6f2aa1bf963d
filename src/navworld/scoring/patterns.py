"""Every regular expression of the scorer, compiled once.

Design rules (each fixes an upstream defect, see ``docs/scoring.md``):

* No ``\\b`` next to numbers: CJK characters are ``\\w``, so ``07:00从北京南站出发`` must still yield
  ``07:00``. Digit boundaries use ``(?<!\\d)`` / ``(?!\\d)`` instead.
* Temperatures and wind are read from the ``daytemp: 18℃`` / ``daywind: 东北风`` /
  ``daypower: 1-3级`` lines (bare numbers and missing ``风``/``级`` suffixes are tolerated).
* Train numbers exclude highway codes (``G15沈海高速``, ``走G60``): see :data:`HIGHWAY_AFTER` and
  :data:`HIGHWAY_BEFORE`.
* No nested quantifiers: every pattern runs in linear time on arbitrary text.
"""

from __future__ import annotations

import re
from typing import Final


def _kw(text: str) -> re.Pattern[str]:
    """Compile an alternation case-sensitively (fast scan); plain ASCII words also in Title and UPPER case."""
    parts = []
    for alt in text.split("|"):
        parts.append(alt)
        if re.fullmatch(r"[a-z][a-z ]*\??", alt):
            parts += [alt[:1].upper() + alt[1:], alt.upper()]
    return re.compile("|".join(dict.fromkeys(parts)))


# --------------------------------------------------------------------------- transport IDs

# Patterns scanned over whole answers start with a character class and check the preceding
# character in code (``not_after``): a leading look-behind disables the regex engine's fast scan.
FLIGHT_ID: Final = re.compile(r"((?:[A-Z]{2}|[0-9][A-Z])[0-9]{3,4})(?![0-9])")
FLIGHT_TAIL: Final = re.compile(r"[A-Z][0-9]{3,4}(?![0-9])")
"""Scanned instead of FLIGHT_ID (letter-first is fast); the character before the tail completes the ID."""
TRAIN_ID: Final = re.compile(r"([GDCZTK][0-9]{1,5})(?![0-9])")
ID_FULL_FLIGHT: Final = re.compile(r"(?:[A-Z]{2}|[0-9][A-Z])[0-9]{3,4}")
ID_FULL_TRAIN: Final = re.compile(r"[GDCZTK][0-9]{1,5}")
TOOL_FLIGHT_LINE: Final = re.compile(r"航班\s*[:：]?\s*((?:[A-Z]{2}|[0-9][A-Z])[0-9]{3,4})(?![0-9])")
TOOL_TRAIN_LINE: Final = re.compile(r"车次\s*[:：]?\s*([GDCZTK][0-9]{1,5})(?![0-9])")
TOOL_TRANSPORT_NAMES: Final = re.compile(
    r"[（(]([^）)\s]{2,12})[）)]|[0-9]{1,2}:[0-9]{2}(?:\s*[（(]次日[）)])?\s+([^\s→，,（(]{2,20})"
)
"""Carrier (``（中国国际航空）``) and airport/station names (after a time) of a transport line."""
CARRIER_NAME: Final = re.compile(r"[\u4e00-\u9fa5]{2,6}航空")
"""Carrier names in an answer; POI name halves never match inside them (中国国 ⊂ 中国国际航空)."""
HIGHWAY_AFTER: Final = re.compile(
    r"^[\u4e00-\u9fa5]{0,6}(?:高速|国道|省道|公路|快速路|绕城|环线|出口|收费站|服务区|互通)"
)
HIGHWAY_BEFORE: Final = re.compile(r"(?:高速|国道|省道|公路|沿|驶入|进入|驶上|上|走|经|途经)\s*$")
TRAIN_CONTEXT_BEFORE: Final = re.compile(r"(?:车次|高铁|动车|火车|列车|城际|直达|特快|快速|乘坐|搭乘)\s*$")
SHORT_CODE_AFTER: Final = re.compile(r"^(?:\s*[:：]|天|日|航站楼|号|级|座|区|栋|层|出口|口)")
FLIGHT_CONTEXT: Final = _kw(r"航班|飞机|机票|起飞|降落|航空|机场|flight")
TRAIN_CONTEXT: Final = _kw(r"火车|高铁|动车|车次|列车|铁路|站|train")

# --------------------------------------------------------------------------- times, prices, durations, distances

TIME: Final = re.compile(r"([0-9]{1,2})[:：]([0-5][0-9])(?![0-9])")
TIME_RANGE: Final = re.compile(
    r"(?<![0-9])([01]?[0-9]|2[0-4])[:：]([0-5][0-9])\s*[-~～至到—–]\s*([01]?[0-9]|2[0-4])[:：]([0-5][0-9])(?![0-9])"
)
NEXT_DAY: Final = re.compile(r"^\s*[（(]次日[)）]")
PRICE: Final = re.compile(r"([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)\s*(?:元|块钱|块|RMB|CNY|yuan)")
PRICE_SIGN: Final = re.compile(r"(?:[¥￥]|CNY|RMB)\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)")
"""Amounts written with the currency first: ``¥75``, ``￥75``, ``CNY 60``, ``RMB60``."""
TOOL_PRICE: Final = re.compile(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s*元")
DURATION: Final = re.compile(
    r"([0-9]{1,4}(?:\.[0-9])?)\s*(?:个)?(小时|hours?(?![a-z])|hrs?(?![a-z])|h(?![a-z])|分钟|min(?:ute)?s?(?![a-z]))"
    r"(?:\s*([0-9]{1,2})\s*(?:分|min(?:ute)?s?(?![a-z])|m(?![a-zA-Z])))?"
)
DURATION_SHORT: Final = re.compile(r"(?:飞行|历时|用时|耗时|全程)\s*([0-9]{1,3})\s*分(?![钟0-9])")
NUMBER_TOKEN: Final = re.compile(
    r"([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+(?:\.[0-9]+)?)"
    r"(?:([:：][0-5][0-9])(?![0-9])"
    r"|\s*(元|块钱|块|RMB|CNY|yuan|公里|千米|km|KM|Km|米|m(?![a-zA-Z])|个小时|小时|hours?(?![a-z])|hrs?(?![a-z])"
    r"|h(?![a-z])|分钟|min(?:ute)?s?(?![a-z]))"
    r"(?:\s*([0-9]{1,2})\s*(?:分|min(?:ute)?s?(?![a-z])|m(?![a-zA-Z])))?)?"
)
"""One pass over an answer: every number with what follows it (a time, a price, a distance or a duration)."""
DISTANCE: Final = re.compile(r"([0-9]{1,6}(?:\.[0-9]{1,3})?)\s*(公里|千米|km|KM|Km|米|m)(?![a-zA-Z])")

# --------------------------------------------------------------------------- weather

WEATHER_COND: Final = re.compile(
    r"雷阵雨伴有冰雹|雷阵雨|强雷阵雨|小到中雨|中到大雨|大到暴雨|小到中雪|中到大雪|雨夹雪|冻雨|阵雨|阵雪|"
    r"小雨|中雨|大雨|暴雨|小雪|中雪|大雪|暴雪|多云|晴|阴(?!凉|影|森|天井)|浓雾|大雾|雾|霾|扬沙|浮尘|沙尘暴"
)
TEMP_RANGE: Final = re.compile(
    r"(?<![0-9])(-?[0-9]{1,2})[ \t]{0,3}(?:℃|°C|°|度)?[ \t]{0,3}[-~～至到/][ \t]{0,3}(-?[0-9]{1,2})[ \t]{0,3}(?:℃|°C|°|度)"
)
TEMP_DIFFERENCE_BEFORE: Final = re.compile(r"(?:温差|相差|差|低了|高了|降|升|[Dd]ifference|swing|drop)\s*(?:约|大约|有|达|of|about)?\s*$")
TEMP: Final = re.compile(r"(?<![0-9])(-?[0-9]{1,2})\s*(?:℃|°C|°|度)(?![0-9])")
WIND_DIR: Final = re.compile(r"(无持续风向|旋转不定|[东南西北]{1,2}风)(?![景格味光情俗采度范筝])")
WIND_POWER: Final = re.compile(
    r"(≤|<=|小于|不超过)?\s*([0-9]{1,2})(?:\s*[-~～至到]\s*([0-9]{1,2}))?\s*级(?![别景])"
)
WEATHER_CONTEXT: Final = _kw(
    r"天气|气温|温度|预报|气候|降雨|降水|风力|风向|穿衣|℃|°C|晴|多云|阵雨|weather|temperature|forecast|wind"
)
EN_WEATHER_COND: Final = re.compile(
    r"(?<![A-Za-z])(thunder ?showers?|thunder ?storms?|light rain|moderate rain|heavy rain|rain ?storms?|"
    r"showers?|drizzle|light snow|moderate snow|heavy snow|snow ?storms?|sleet|freezing rain|"
    r"partly cloudy|mostly cloudy|cloudy|overcast|sunny|clear skies|foggy|fog|hazy|haze)(?![A-Za-z])",
    re.IGNORECASE,
)
"""English condition words (read on weather lines); :data:`EN_WEATHER_MAP` gives their Chinese forms.
Bare ``rain``/``snow``/``clear`` are left out: they are as often advice (``rain gear``, ``clear the
schedule``) as forecasts."""
EN_NEGATION: Final = re.compile(r"(?<![A-Za-z])(?:no|not|without|isn't|aren't|won't|zero)\s+(?:\w+\s+)?$", re.IGNORECASE)
EN_WEATHER_MAP: Final[dict[str, tuple[str, ...]]] = {
    "thundershower": ("雷阵雨", "强雷阵雨", "雷阵雨伴有冰雹"),
    "thunderstorm": ("雷阵雨", "强雷阵雨", "雷阵雨伴有冰雹"),
    "light rain": ("小雨", "小到中雨"),
    "drizzle": ("小雨",),
    "moderate rain": ("中雨", "小到中雨", "中到大雨"),
    "heavy rain": ("大雨", "中到大雨", "大到暴雨", "暴雨"),
    "rainstorm": ("暴雨", "大到暴雨"),
    "shower": ("阵雨",),
    "rain": ("小雨", "中雨", "大雨", "阵雨", "暴雨", "小到中雨", "中到大雨", "雷阵雨"),
    "light snow": ("小雪", "小到中雪"),
    "moderate snow": ("中雪", "小到中雪", "中到大雪"),
    "heavy snow": ("大雪", "中到大雪", "暴雪"),
    "snowstorm": ("暴雪",),
    "snow": ("小雪", "中雪", "大雪", "阵雪", "暴雪", "小到中雪", "中到大雪"),
    "sleet": ("雨夹雪",),
    "freezing rain": ("冻雨",),
    "sunny": ("晴",),
    "clear": ("晴",),
    "clear skies": ("晴",),
    "partly cloudy": ("多云",),
    "mostly cloudy": ("多云",),
    "cloudy": ("多云",),
    "overcast": ("阴",),
    "fog": ("雾", "大雾", "浓雾"),
    "foggy": ("雾", "大雾", "浓雾"),
    "haze": ("霾",),
    "hazy": ("霾",),
}
"""English condition → the Chinese conditions it may stand for (the first one a tool returned wins)."""
EN_WIND: Final = re.compile(
    r"(?<![A-Za-z])(north[- ]?east|north[- ]?west|south[- ]?east|south[- ]?west|north|south|east|west|NE|NW|SE|SW|N|S|E|W)"
    r"(?:erly)?(?:\s+winds?)?\s*[,，]?\s*(?:(?:force|level|grade|Beaufort|scale)\s*)?"
    r"(?:([0-9]{1,2})(?:\s*[-–~～]\s*([0-9]{1,2}))?)?(?![A-Za-z0-9])",
    re.IGNORECASE,
)
"""English wind: a direction (``NE``, ``north-east``, ``northerly``) with ``wind`` or a force (``NE 3-4``)."""
EN_WIND_DIRS: Final[dict[str, str]] = {
    "n": "北风", "s": "南风", "e": "东风", "w": "西风",
    "ne": "东北风", "nw": "西北风", "se": "东南风", "sw": "西南风",
    "north": "北风", "south": "南风", "east": "东风", "west": "西风",
    "northeast": "东北风", "northwest": "西北风", "southeast": "东南风", "southwest": "西南风",
}
EN_WIND_POWER: Final = re.compile(
    r"(?:force|level|grade|Beaufort|scale)\s*([0-9]{1,2})(?:\s*[-–~～]\s*([0-9]{1,2}))?(?![0-9])", re.IGNORECASE
)
TOOL_KV: Final = re.compile(r"^\s*([A-Za-z_]+)\s*[:：]\s*(.*?)\s*$")
TOOL_BLOCK_HEADER: Final = re.compile(r"^\s*#{1,4}\s*(.*?)\s*$")
TOOL_DATE_HEADER: Final = re.compile(r"^\s*#{1,4}\s*([0-9]{4}-[0-9]{2}-[0-9]{2})")
TOOL_HEADER_NAME: Final = re.compile(
    r"^\s*(poi_search|around_search|direction|weather|search_flights|search_train_tickets)\s*[:：]"
)

# --------------------------------------------------------------------------- roads

ROAD_SPLIT: Final = re.compile(
    r"[^\u4e00-\u9fa5]+|沿着|沿|进入|驶入|转入|经过|途经|右转|左转|直行|掉头|到达|行驶|前行|继续|穿过|通过|"
    r"靠左|靠右|方向|千米|公里|米|与|及|约|到|乘坐|步行|打车|可以|在|回|去|距|离|的|是|从|往|逛"
)
ROAD_NAME: Final = re.compile(
    r"[\u4e00-\u9fa5]{1,10}?(?:高速公路|快速路|大道|环路|高架|隧道|立交|大桥|高速|路|街|桥)"
)
ROAD_BAD_SUFFIX: Final = re.compile(r"(?:线|程|况|径|费|途|人|边|面|段|灯|标|滑|上|过|旁|痴|牌|由|霸|费)")
ROAD_STOP_NAMES: Final = frozenset(
    {"马路", "公路", "铁路", "道路", "一路", "走路", "上路", "问路", "带路", "小路", "大路", "半路"}
)
ROAD_PROSE_ENDINGS: Final = frozenset(
    {
        "思路", "赶路", "走路", "一路", "带路", "问路", "上路", "半路", "顺路", "绕路", "迷路", "近路", "远路",
        "弯路", "出路", "套路", "山路", "水路", "陆路", "马路", "公路", "铁路", "小路", "大路", "道路", "老路",
        "回头路", "冤枉路", "逛街", "上街", "过桥", "搭桥", "之路", "的路", "条路", "段路", "在路", "夜路",
    }
)
"""Words ending in 路/街/桥 that are prose, not road names (``整体思路``, ``多走路``, ``去逛街``)."""

# --------------------------------------------------------------------------- POIs and places

POI_BRACKETED: Final = re.compile(r"[「【《]([^」】》\n]{2,30})[」】》]")
PLACE_SUFFIX_ONLY: Final = re.compile(
    r"风景名胜区|风景区|景区|国家公园|森林公园|公园|博物馆|博物院|纪念馆|美术馆|科技馆|展览馆|艺术馆|海洋馆|水族馆|动物园|"
    r"植物园|游乐园|乐园|古镇|古城|古街|老街|步行街|大街|寺|庙|塔|宫|故居|遗址|广场|湖|山|岛|酒店|宾馆|饭店|餐厅|酒家|酒楼|"
    r"客栈|民宿|茶馆|书院|剧院|大厦|商场|夜市|市场|中心|馆|园|楼|阁|祠|桥"
)
PLACE_STOP: Final = re.compile(
    r"[^\u4e00-\u9fa5A-Za-z0-9·]|[一两几这那每哪多][家座个处]|搜索|距离?|游览|参观|前往|到达|抵达|入住|打卡|推荐|品尝|乘坐|步行|打车|返回|出发|然后|之后|"
    r"接着|再去|去|逛|在|从|至|到|和|与|及|或|住|吃|晚餐|午餐|早餐|附近|周边|建议|可以|选择|位于|距离|"
    r"的|回|内|个|这|那|些|每|各|就|也|都|又|还|要|会|能|把|让|给|被|是|有|没|不|很|最|更|才|先|再|即|便"
)
ROAD_SUFFIX_ONLY: Final = re.compile(r"高速公路|快速路|大道|环路|高架|隧道|立交|大桥|高速|路|街|桥")
PLACE_SUFFIX: Final = re.compile(
    r"[\u4e00-\u9fa5A-Za-z0-9·]{1,12}?(?:风景名胜区|风景区|景区|国家公园|森林公园|公园|博物馆|博物院|纪念馆|美术馆|科技馆|"
    r"展览馆|艺术馆|海洋馆|水族馆|动物园|植物园|游乐园|乐园|古镇|古城|古街|老街|步行街|大街|寺|庙|塔|宫|故居|遗址|"
    r"广场|湖|山|岛|酒店|宾馆|饭店|餐厅|酒家|酒楼|客栈|民宿|茶馆|书院|剧院|大厦|商场|夜市|市场|中心|馆|园|楼|阁|祠|桥)"
)
PLACE_SPLIT: Final = re.compile(
    r"[^\u4e00-\u9fa5A-Za-z0-9·]+|游览|参观|前往|到达|抵达|入住|打卡|推荐|品尝|乘坐|步行|打车|返回|出发|然后|之后|"
    r"接着|再去|去|逛|在|从|至|到|和|与|及|或|住|吃|晚餐|午餐|早餐|附近|周边|建议|可以|选择|位于|距离"
)
ADMIN_SUFFIX: Final = re.compile(r"(?:省|市|区|县|自治州|地区|新区)$")
NAME_NOISE: Final = re.compile(r"[\s·・\-—–_,，。、()（）\[\]【】「」《》\"'“”‘’:：;；!！?？]+")
BRANCH_SUFFIX: Final = re.compile(r"[（(][^）)]{1,20}[)）]\s*$")
GENERIC_NAME_PARTS: Final = frozenset(
    {
        "入园",
        "登山",
        "爬山",
        "下山",
        "上山",
        "场馆",
        "展馆",
        "闭馆",
        "开馆",
        "进馆",
        "素食餐厅",
        "家庭餐厅",
        "亲子餐厅",
        "特色餐厅",
        "本地餐厅",
        "连锁酒店",
        "经济型酒店",
        "景区",
        "公园",
        "酒店",
        "宾馆",
        "饭店",
        "餐厅",
        "中心",
        "广场",
        "博物馆",
        "国际",
        "大酒店",
        "商务酒店",
        "风景区",
        "旅游区",
        "度假区",
        "美食城",
        "小吃",
        "文化",
        "中国",
        "国家",
        "世界",
        "旗舰店",
        "总店",
        "分店",
    }
)

# --------------------------------------------------------------------------- answer structure

JSON_FENCE: Final = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)
DAY_HEADER: Final = re.compile(r"第\s*([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*[天日]")
DAY_HEADER_EN: Final = re.compile(r"(Day|DAY|day|D)\s*([0-9]{1,2})(?![0-9])")
DAY_D_AFTER: Final = re.compile(r"\s*[:：（(]|\s*$|\s+")
BUDGET_LINE: Final = _kw(r"预算|合计|总计|总费用|总花费|共计|小计|费用|花费|人均|budget|total")
LINE_SPLIT: Final = re.compile(r"\r?\n")
VISIT_VERBS: Final = _kw(r"游览|参观|前往|打卡|游玩|逛|visit|explore|head to")
STAY_VERBS: Final = _kw(r"入住|住在|下榻|住宿|住|推荐酒店|stay at|stay in|check in|check into")
TAKE_VERBS: Final = _kw(r"乘坐|搭乘|推荐|首选|选择|建议|去程|返程|回程|take|board|book|recommend")
SCHEDULE_DAY: Final = re.compile(
    r"第\s*([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*[天日]"
    r"|(?<![A-Za-z])(?:Day|DAY|day)[\s\-_]*([0-9]{1,2})(?![0-9])"
    r"|(?<![A-Za-z0-9])D([0-9]{1,2})(?![0-9])"
)
SCHEDULE_DATE: Final = re.compile(
    r"^[ \t#>*|\-•·]{0,12}(?:(20[0-9]{2})[-/.年])?([01]?[0-9])[-/.月]([0-3]?[0-9])日?(?![0-9])", re.MULTILINE
)
"""A date opening a line (a day heading ``## 5/19（星期三）``, ``2027-05-19``): that day of the trip."""
"""A day marker of the prose itinerary (``第2天``, ``第二日``, ``Day 2``): the mentions after it, up to
the next one, are that day's."""
SCHEDULE_CLOCK: Final = re.compile(r"(?<![0-9])(?:[01]?[0-9]|2[0-3])[:：][0-5][0-9](?![0-9])")
"""A clock time on a line: the line is a slot of the prose schedule (``- 09:00–11:00 X``)."""
LOCATION_HINT_AFTER: Final = re.compile(r"[ \t]{0,3}[」』”\"*]{0,3}[ \t]{0,3}(?:附近|旁边|旁|对面|周边|一带|门口|出发|nearby|near)")
"""Right after a name: the name only says where (``在X附近午餐``, ``从X出发``), it is not the slot."""
ALTERNATIVE_WORDS: Final = _kw(
    r"备选|可选|其他(?!时间|时候)|也可|或者|或(?!许)|如果|若|雨天|替代|备用|不推荐|不建议|放弃|对比|可改|改住|改成|改为|换成|换到|可换|想省钱"
    r"|方案[一二三四五六七八九十0-9]|选项|不选|不考虑"
    r"|alternative|option|instead|otherwise|or |if "
)
"""A line offering alternatives: a name scheduled there need not be in the plan (also a section whose
heading offers them: ``**火车（不推荐）**``, ``### 备选方案``)."""
DISTANCE_AFTER_NAME: Final = re.compile(r"[^\n，,。；;0-9]{0,6}[0-9]{1,6}(?:\.[0-9]{1,3})?[ \t]{0,2}(?:米|公里|千米|km|m\b)")
"""Right after a name: a distance (``距X 2409米``, ``离X约1.2公里``)."""
RANGE_SEPARATOR: Final = re.compile(r"[ \t]{0,3}(?:[-–—~～至到]|to)[ \t]{0,3}")
"""Between the two ends of a time range (``08:00-17:30``, ``9:00 至 17:00``)."""
SLOT_ALTERNATIVE_WORDS: Final = _kw(
    r"备选|可选|替代|备用|如果|若是|若遇|雨天|下雨|想省钱|可改|改去|改成|改为|换成|换到|可换|或者去|也可以去|也可去"
    r"|alternative|instead|optional|if "
)
"""In a timed slot's own clause before its name: the name is an alternative to the slot, not the slot
(a bare 或 is often a choice of travel mode, ``步行或打车``, and offers no place)."""
SECTION_HEADING: Final = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+.*|\*\*[^*\n]+\*\*[ \t]*[:：]?[ \t]*)$", re.MULTILINE)
"""A markdown heading or a line that is one bold phrase: it opens a section of the prose."""
OPENING_BEFORE: Final = re.compile(
    r"开放|营业|开门|闭馆|关门|开园|闭园|开馆|入园时间|[Oo]pen(?:s|ing)?|[Hh]ours|[Cc]loses?(?! to| by)"
)
"""Right before a time (within OPENING_WINDOW): the time is an opening-hours claim."""
OPENING_HEADER: Final = re.compile(r"开放|营业|[Oo]pen|[Hh]ours")
"""A table column of opening hours."""
AMOUNT_OF_NEXT: Final = re.compile(r"[ \t]{0,3}(?:元|块)?(?:/晚|/人|每晚)?[ \t]{0,3}[的之][ \t]{0,3}[「『“\"*]{0,3}")
"""Right after an amount: it qualifies the name that follows (``178元 的格林豪泰``)."""
MODE_FIXED_PROGRAM: Final = re.compile(r"result\s*=\s*modes\s*==\s*\{\s*['\"](airplane|train)['\"]\s*\}")
"""A constraint program fixing the intercity mode (the user flies, or takes the train, both ways)."""
MAX_PER_DAY_PROGRAM: Final = re.compile(r"if count > ([0-9]{1,2}):")
"""The per-day cap of an "at most N attractions a day" program."""
ECHO_DROP: Final = re.compile(r"[^\u4e00-\u9fffA-Za-z0-9]+")
"""Everything echo detection ignores (punctuation, bullets, spaces, markdown)."""
LIST_SPLIT: Final = re.compile(r"[、,，;；/]")

# --------------------------------------------------------------------------- hard constraints: format keywords

FORMAT_KEYWORDS: Final[dict[str, re.Pattern[str]]] = {
    "intercity": _kw(r"航班|火车|高铁|飞机|车次|flight|train"),
    "multiday": re.compile(r"第\s*[0-9一二三四五六七八九十]{1,3}\s*天|(?:Day|DAY|day)\s*[0-9]{1,2}"),
    "hybrid": re.compile(
        r"航班|火车|高铁|飞机|车次|第\s*[0-9一二三四五六七八九十]{1,3}\s*天|(?:Day|DAY|day)\s*[0-9]{1,2}"
    ),
    "single_poi": _kw(r"景点|游览|路线|门票|开放|attraction|ticket"),
    "food_tour": _kw(r"美食|餐厅|小吃|特色|推荐|restaurant|food"),
    "business": _kw(r"航班|火车|高铁|酒店|商务|flight|train|hotel|business"),
    "family_study": _kw(r"亲子|儿童|学习|博物馆|科技馆|体验|family|museum"),
}

# --------------------------------------------------------------------------- completeness keywords / contexts


KW_FLIGHT: Final = _kw(r"航班|飞机|机票|flight|plane|airfare")
KW_TRAIN: Final = _kw(r"火车|高铁|动车|车次|列车|train|rail")
KW_TRANSPORT_PLAN: Final = _kw(r"航班|飞机|机票|火车|高铁|动车|车次|列车|flight|train|rail")
KW_TIMES: Final = _kw(r"出发|到达|发车|起飞|抵达|降落|depart|arriv|leave|land")
CTX_TIMES: Final = _kw(r"航班|车次|高铁|动车|飞机|列车|火车|机场|站|flight|train|station|airport")
KW_PRICE: Final = _kw(r"价格|费用|票价|花费|price|fare|cost")
CTX_PRICE: Final = _kw(r"元|二等座|一等座|经济舱|商务座|公务舱|硬卧|软卧|硬座|¥|￥|CNY|RMB|yuan|second class|economy|first class")
KW_RECOMMEND: Final = _kw(r"推荐|建议|最佳|首选|选这个|就选|选它|recommend|suggest|best|pick|choose|go with")
CTX_REASON: Final = _kw(r"因为|由于|综合|性价比|适合|考虑|相比|更|所以|because|since|why|than|cheaper|faster|compared|better|so that|which means|理由|原因")
KW_ATTRACTION: Final = _kw(r"景点|游览|参观|景区|打卡|sightseeing|visit|attraction|sight|tour|museum|park|temple|explore")
CTX_ATTRACTION: Final = _kw(r"门票|开放|小时|时间|上午|下午|[0-9]{1,2}[:：][0-9]{2}|ticket|admission|open|hours|morning|afternoon")
KW_DINING: Final = _kw(r"餐|吃|美食|小吃|菜|restaurant|food|lunch|dinner|breakfast|eat|meal|dish")
CTX_DINING: Final = _kw(r"人均|推荐|特色|招牌|必点|口味|元|per person|recommend|signature|specialt|taste|CNY|RMB")
KW_LODGING: Final = _kw(r"住宿|酒店|宾馆|入住|客栈|民宿|hotel|stay|accommodation|room|check in")
CTX_LODGING: Final = _kw(r"每晚|房|星|晚|元|位置|交通|night|room|star|location|CNY|RMB")
KW_TRANSPORT_LOCAL: Final = _kw(r"交通|出行|打车|地铁|公交|步行|驾车|骑行|taxi|metro|walk|subway|bus|drive|transport|ride")
CTX_TRANSPORT_LOCAL: Final = _kw(r"公里|千米|分钟|小时|约|距离|km|min|distance|minutes|about")
KW_BUDGET: Final = _kw(r"预算|费用|花费|合计|总计|开销|budget|total|cost|spend")
CTX_BUDGET: Final = _kw(r"总|合计|共|元|人均|每人|total|per person|CNY|RMB|yuan|each")
KW_WEATHER: Final = _kw(r"天气|气温|温度|预报|weather|forecast|temperature")
KW_WEATHER_S2: Final = _kw(r"天气|气温|温度|预报|晴|阴|多云|[小中大暴阵]雨|雷阵雨|雪|雾|霾|℃|°C|weather|forecast|temperature")
"""s2: a forecast written as the forecast (``中雨，8℃，东风 5-6级`` in a day heading) is on topic
without the word 天气."""
CTX_WEATHER: Final = _kw(r"穿|带|注意|建议|防|伞|℃|度|wear|bring|umbrella|jacket|layer|sunscreen|rain|cool|warm")
KW_TOUR: Final = _kw(r"游览|参观|路线|景点|行程|tour|route|itinerary|visit|schedule")
CTX_TOUR: Final = _kw(r"先|然后|接着|之后|最后|上午|下午|小时|[0-9]{1,2}[:：][0-9]{2}|first|then|next|after|finally|morning|afternoon")
KW_NEARBY: Final = _kw(r"周边|附近|周围|就近|nearby|near|around|close to|walking distance")
CTX_NEARBY: Final = _kw(r"米|公里|步行|距离|分钟|推荐|walk|minutes|distance|km|recommend")
KW_LOCAL_DISTANCE: Final = _kw(r"交通|前往|到达|打车|地铁|公交|步行|驾车|距离|路程|出行|taxi|metro|subway|bus|walk|distance|drive|ride")
KW_TICKETS: Final = _kw(r"门票|票价|开放|开门|营业|提示|注意|贴士|tips?|ticket|admission|entry|open|hours|note")
CTX_TICKETS: Final = _kw(r"元|时间|[0-9]{1,2}[:：][0-9]{2}|免费|预约|CNY|RMB|yuan|free|reservation|book")
KW_RESTAURANT: Final = _kw(r"餐厅|饭店|美食|小吃|馆|店|restaurant|eatery|diner|food")
CTX_RESTAURANT: Final = _kw(r"人均|评分|推荐|特色|元|地址|per person|rating|signature|CNY|RMB|address")
KW_DISHES: Final = _kw(r"菜|招牌|必点|必吃|特色|推荐|dish|signature|must-try|specialt")
CTX_DISHES: Final = _kw(r"口味|味道|鲜|辣|甜|香|嫩|酥|、|taste|spicy|sweet|fresh|crispy|savory|rich")
KW_ROUTE: Final = _kw(r"路线|顺序|先|然后|接着|步行|打车|地铁|route|order|first|then|next|walk|taxi|metro")
CTX_ROUTE: Final = _kw(r"公里|千米|米|分钟|距离|约|km|minutes|distance|about")
KW_COST: Final = _kw(r"人均|费用|花费|预算|价格|合计|cost|per person|price|total|budget")
KW_TIPS: Final = _kw(r"提示|建议|注意|贴士|tips?|小贴士|advice|note|suggest")
CTX_TIPS: Final = _kw(r"天气|排队|预约|高峰|带|穿|避开|weather|queue|book|peak|bring|wear|avoid")
KW_HOTEL: Final = _kw(r"酒店|住宿|宾馆|入住|hotel|stay|accommodation")
KW_BUSINESS: Final = _kw(r"商务|会议|办公|wifi|网络|会展|会客|business|meeting|work|conference|client")
CTX_BUSINESS: Final = _kw(r"设施|距离|方便|附近|会议室|打印|安静|交通|wifi|desk|quiet|distance|convenient|near|facilit")
KW_FAMILY: Final = _kw(r"亲子|儿童|孩子|家庭|小朋友|family|kids?|child|children")
CTX_FAMILY: Final = _kw(r"适合|安全|互动|体验|休息|年龄|suitable|safe|interactive|hands-on|rest|age|friendly")
KW_EDUCATION: Final = _kw(r"学习|教育|科普|博物馆|科技馆|研学|了解|知识|museum|learn|science|education|history|exhibit")
CTX_EDUCATION: Final = _kw(r"展|讲解|体验|历史|科学|文化|exhibit|guide|hands-on|history|science|culture")
KW_DINING_LODGING: Final = _kw(r"餐|吃|美食|住宿|酒店|宾馆|入住|hotel|restaurant|eat|stay|meal")

# --------------------------------------------------------------------------- judge summary signals

CONNECTORS: Final = re.compile(
    r"因为|所以|因此|由于|综合|考虑到|相比|对比|权衡|如果|否则|但是|不过|然而|从而|because|therefore"
)
COMPARISON: Final = re.compile(
    r"相比|对比|比较|更便宜|更快|更贵|更省|性价比|优于|不如|compared|cheaper|faster"
)
LIMITATION: Final = re.compile(
    r"仅返回|仅提供|有限|以实际为准|以官方为准|请以|建议.{0,10}(?:查询|确认|核实)|可能.{0,6}变化|未返回|未提供|无法获取|数据.{0,6}(?:不全|有限|缺失)"
)
PERSONAL: Final = re.compile(r"根据您的|按照您的|考虑到您|您的预算|您的需求|您提到|为您")

# --------------------------------------------------------------------------- anti-injection (applied to every summary string)

INJECTION_PATTERNS: Final = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"ignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|preceding)?\s*(?:instructions?|prompts?|rules?|context)",
        r"disregard\s+(?:all\s+|the\s+)?(?:previous|prior|above|earlier)?\s*(?:instructions?|prompts?|rules?)",
        r"forget\s+(?:all\s+|everything|your\s+)?\s*(?:instructions?|rules?|above|previous)?",
        r"(?:give|assign|award|rate)\s+(?:me\s+|this\s+|it\s+)?(?:a\s+)?(?:full|perfect|maximum|max|top|highest)\s+(?:marks?|scores?|points?|rating)",
        r"(?:full|perfect|maximum)\s+(?:marks?|scores?)",
        r"set\s+(?:all\s+)?(?:the\s+)?scores?",
        r"scores?\s*(?:of|=|:|to)\s*10\b",
        r"\b10\s*/\s*10\b",
        r"you\s+are\s+(?:now|a|an)\s+",
        r"new\s+instructions?",
        r"system\s*(?:prompt|message|override)",
        r"</?\s*(?:system|assistant|user|instruction|im_start|im_end)\s*>",
        r"\[/?(?:INST|SYS)\]",
        r"<\|[^|>]{0,20}\|>",
        r"jailbreak|prompt\s*injection|developer\s+mode|DAN\s+mode",
        r"as\s+an?\s+(?:ai|evaluator|judge|grader)",
        r"(?:evaluator|judge|grader|scorer)\s*[:,，]",
        r"忽略.{0,8}(?:指令|指示|提示|规则|要求|说明|内容)",
        r"无视.{0,8}(?:指令|指示|提示|规则|要求)",
        r"(?:之前|以上|上面|前面)的?(?:所有)?(?:指令|指示|提示|规则)",
        r"(?:给|打|评)(?:我|出|个)?(?:满分|最高分|高分|10分|十分)",
        r"满分|最高分",
        r"(?:所有|全部|各项)(?:维度|评分|分数).{0,6}(?:设为|设置|给|打|为)",
        r"你(?:现在)?是(?:一个|一名)?(?:评委|评分|裁判|助手|系统)",
        r"系统提示|系统指令|提示词|评分标准|评分规则",
        r"(?:评分|打分|分数)(?:为|是|=|：|:)\s*(?:10|十|满)",
    )
)
CONTROL_CHARS: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
DEFAULT_IGNORABLE: Final = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
"""Every Unicode Default_Ignorable_Code_Point (soft hyphen, zero-width and bidi controls, variation
selectors, fillers, tags): invisible when rendered, so removed from the answer before any reader
(``上\ufe00海博物馆`` is ``上海博物馆``)."""
BOUNDARY_LIKE: Final = re.compile(
    r"<{2,}|>{2,}|={3,}|#{3,}|`{3,}|-{3,}|BOUNDARY[_A-Z0-9]*|DATA_[0-9A-F]{4,}|</?\s*DATA[^>]{0,24}>",
    re.IGNORECASE,
)
THINK_BLOCK: Final = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
JSON_OBJECT_START: Final = re.compile(r"\{")


# --------------------------------------------------------------------------- answer-side fact contexts

TIME_FACT_CONTEXT: Final = _kw(
    r"航班|飞机|高铁|火车|动车|车次|列车|出发|到达|起飞|降落|发车|抵达|开放|营业|开门|闭馆|关门|开园|"
    r"FlightID|TrainID|airplane|train|depart|arriv|open"
)
TAXI_WORDS: Final = _kw(r"打车|出租车|的士|网约车|滴滴|taxi")
TRANSIT_WORDS: Final = re.compile(
    _kw(r"地铁|公交|轨道交通|公共交通|轻轨|有轨电车|号线|BRT|metro|bus|subway|line").pattern + r"|[0-9]{1,3}路(?![0-9])"
)
POI_PRICE_WORDS: Final = _kw(r"人均|门票|票价|每晚|房价|房费|一晚|成人票|学生票|消费|ticket|per night")
CLAIM_STOP: Final = re.compile(r"[\n。；;]")
COMPARED_WITH: Final = re.compile(r"(?:比|较|相比|对比|than|compared (?:to|with)|versus|vs\.?)\s*(?:\*\*)?$")
"""Right before an ID: it is the object of a comparison; the clause's times are the subject's."""
CLAUSE_END: Final = re.compile(r"[；;。!！?？]")
PHRASE_BREAK: Final = re.compile(r"[，,；;。!！?？]")
AMOUNT_UNIT: Final = re.compile(r"[0-9零〇一二两三四五六七八九十百千万]\s*(?:元|块|yuan|RMB|CNY)")
"""A marked amount after a phrase break and another amount is a total of its own phrase."""
TOTAL_WORDS: Final = re.compile(
    r"[=＝]|合计|总计|共计|一共|总共|小计|总价|总费用|总额|约合|共|往返|来回|全天|全程花费|[Tt]otal|[Ss]ubtotal|"
    r"altogether|in all|round[- ]trip|both ways"
)
"""Between an entity and an amount: the amount is a total, not the entity's price."""
MULTIPLIER: Final = re.compile(
    r"(?:[0-9]+|[一二两三四五六七八九十]+)\s*(?:晚|人(?!均)|位|间|张|天|次|份|家|个房间|nights?|people|persons?|pax|"
    r"rooms?|tickets?|adults?|guests?|days?)|[×xX*]\s*[0-9]|[0-9]\s*[×xX*]"
)
"""Between an entity and an amount: a count of people / nights / rooms — the amount is a multiple."""
DIFFERENCE_WORDS: Final = re.compile(
    r"省下?|节省|便宜|贵了?|多花|少花|差价|相差|差额|剩余|剩下|结余|超出|超支|余额|多出|"
    r"[Cc]heaper|expensive|sav(?:e|es|ing)|"
    r"difference|more than|less than"
)
"""Between an entity and an amount: the amount is a difference or a saving."""
MORE_LESS_BEFORE: Final = re.compile(r"[多少]\s*(?:了|约|出)?\s*(?:[¥￥])?\s*$")
"""Right before an amount: ``一等座多 224 元`` (a difference)."""
DERIVED_BEFORE: Final = re.compile(
    r"(?:[=＝+＋×*]|(?<![A-Za-z0-9])-|(?<![A-Za-z])[xX]|合计|总计|共计|一共|总共|小计|总价|总费用|约合|共|省下?|节省|便宜|贵|多花|"
    r"少花|差价|剩余|剩|结余|超出|超支|多出|往返|来回|预算|[Tt]otal|[Ss]ubtotal|[Bb]udget|saves?(?: only)?|costs? (?:only )?"
    r"(?:an extra|more|less)|extra|under|over|leaves?|leaving|left|remaining|which leaves)\s*(?:了|约|大约|为|是|:|：|only|just|about)?\s*(?:[¥￥]|CNY|RMB)?\s*$"
)
AMOUNT_AT: Final = re.compile(r"(?:[¥￥]|CNY|RMB)?\s*(?:[0-9][0-9,]*(?:\.[0-9]+)?|[零〇一二两三四五六七八九十百千万]+)")
"""An amount at a known position (to read what follows it)."""
DERIVED_AFTER: Final = re.compile(
    r"[ \t]{0,3}(?:元|块|yuan|RMB|CNY)?[ \t]{0,3}(?:的)?[ \t]{0,3}(?:预算|budget|under|over|left|remaining|cheaper|more|less|extra)(?![A-Za-z])"
)
"""Right after an amount: it is a budget, a difference or what is left (``¥920 under your budget``)."""
DIFFERENCE_AFTER: Final = re.compile(
    r"[ \t]{0,3}(?:元|块|yuan|RMB|CNY)?[ \t]{0,3}(?:more|less|cheaper|extra|under|over|left|remaining)(?![A-Za-z])"
)
"""Right after an amount: a difference (``¥490 more``), not a total."""
REFERENCE_POINT: Final = re.compile(r"(?:距离?|离|靠近|邻近|from|near|next to)\s*[「『“\"]?$")
"""A POI right after one of these is a reference point (``距孔望山 2409米``), not the subject of a price."""
UNIT_PRICE_AFTER: Final = re.compile(
    r"[ \t]{0,3}(?:元|块)?[ \t]{0,3}(?:/|每)[ \t]{0,3}(?:人|晚|间|位|张|person|night|room)|[ \t]{0,3}(?:per|pp)\b"
)
"""An amount written as a unit price (``398元/晚``, ``60 per person``)."""
"""Right before an amount (a few characters): a total, sum, difference or saving marker."""
TOTAL_HEADER: Final = re.compile(r"合计|小计|总计|总价|总费用|总额|费用合计|共计|[Ss]ubtotal|[Tt]otal|[Ss]um")
"""A table column whose cells are totals."""
BUDGET_WORDS: Final = re.compile(r"预算|[Bb]udget")
SUM_SIGN: Final = re.compile(r"[+＋]")
BARE_NUMBER: Final = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")
NOT_AN_AMOUNT_BEFORE: Final = re.compile(r"[A-Za-z0-9:：\-/.]$")
NOT_AN_AMOUNT_AFTER: Final = re.compile(
    r"\s*(?:[:：\-/]\d|公里|千米|km|米|m\b|分钟|小时|分|秒|min|h\b|月|日|号|年|点|℃|°|%|％|星|层|楼|路|条|站)|[A-Za-z]"
)
"""A line number that is a clock time, date, distance, duration, code (letters glued to it: ``3A``) or
rating, not an amount (only amounts and counts take part in a line's arithmetic; ``¥1,640 in fares``
is an amount)."""
"""In a table row before an amount without its own entity: the amount sums the row."""
TABLE_SEPARATOR: Final = re.compile(r"\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-{0,}:?\s*\|?")
"""A markdown table separator row (``|---|:---:|``)."""
TIME_BOUND_AFTER: Final = re.compile(r"\s*(?:之前|以前|前|以内|之内|之后|以后|后(?![海湖山街])|before|or earlier|at the latest)")
AFTER_WORDS: Final = re.compile(r"后|after")
"""In a TIME_BOUND_AFTER match: the bound is a lower one (``23点以后``)."""
TIME_BOUND_BEFORE: Final = re.compile(
    r"(?:before|no later than|not later than|deadline|不晚于|不早于|最晚|最迟|截止|须在|需在|要求在?|赶在)\s*[:：]?\s*$"
)
"""A time with one of these around it is a bound from the request (``满足15:00前到达``), not a claim."""
ADVICE_BEFORE: Final = re.compile(
    r"(?:建议|最好|务必|请|提前|记得|需要|需|要在|最晚|最迟|aim to|try to|recommend|suggest|plan to|be at|get to)\s*(?:在|于)?\s*$"
)
"""Right before a bound time: it is advice to the traveller (``建议 16:30 前到站``), not a claim about a train."""
ROAD_BRACKETED: Final = re.compile(r"「([^」\n]{2,20})」")
__all__ = sorted(name for name in globals() if name.isupper())
