"""Handwritten tool results in the navworld tool-output text format (no world package needed)."""

from __future__ import annotations

import json
from typing import Any

POI_WEST_LAKE = """poi_search：关键词「西湖」，城市 杭州，共 4 条结果
## 1
id: B023B09K6R
name: 西湖风景名胜区
type: 风景名胜;风景名胜;国家级景点
typecode: 110202
address: 龙井路1号
location: 120.148500,30.242500
cityname: 杭州市
adname: 西湖区
tel: 0571-87179617
rating: 4.8
cost: 0元（门票）
opentime: 00:00-24:00
visit_hours: 4
## 2
id: B023B0A1LY
name: 灵隐寺
type: 风景名胜;风景名胜相关;寺庙道观
typecode: 110205
address: 法云弄1号
location: 120.101000,30.240900
cityname: 杭州市
adname: 西湖区
tel: 0571-87968665
rating: 4.7
cost: 75元（门票）
opentime: 07:00-18:00
visit_hours: 2.5
## 3
id: B023B0C3PQ
name: 雷峰塔景区
type: 风景名胜;风景名胜;国家级景点
typecode: 110202
address: 南山路15号
location: 120.149300,30.231400
cityname: 杭州市
adname: 西湖区
rating: 4.6
cost: 40元（门票）
opentime: 08:00-20:00
visit_hours: 1.5
## 4
id: B023B0D4RS
name: 浙江省博物馆(孤山馆区)
type: 科教文化服务;博物馆;博物馆
typecode: 140100
address: 孤山路25号
location: 120.144700,30.256400
cityname: 杭州市
adname: 西湖区
rating: 4.7
cost: 0元（门票）
opentime: 09:00-17:00
visit_hours: 2
"""

AROUND_FOOD = """around_search：中心 120.148500,30.242500，半径 3000米，关键词「餐厅」，共 4 条结果
## 1
id: B0FFF1A001
name: 楼外楼(孤山路店)
type: 餐饮服务;中餐厅;浙江菜
typecode: 050101
address: 孤山路30号
location: 120.146200,30.254100
cityname: 杭州市
adname: 西湖区
distance: 850米
rating: 4.5
cost: 180元（人均）
opentime: 10:30-21:00
cuisine: 杭帮菜
dishes: 西湖醋鱼、龙井虾仁、东坡肉
## 2
id: B0FFF1A002
name: 知味观(湖滨店)
type: 餐饮服务;中餐厅;浙江菜
typecode: 050101
address: 仁和路83号
location: 120.163200,30.256900
cityname: 杭州市
adname: 上城区
distance: 1200米
rating: 4.4
cost: 65元（人均）
opentime: 07:00-21:30
cuisine: 杭州小吃
dishes: 小笼包、猫耳朵、片儿川
## 3
id: B0FFF1A003
name: 外婆家(湖滨银泰店)
type: 餐饮服务;中餐厅;浙江菜
typecode: 050101
address: 延安路258号
location: 120.165400,30.259800
cityname: 杭州市
adname: 上城区
distance: 1600米
rating: 4.3
cost: 70元（人均）
opentime: 10:30-21:00
cuisine: 杭帮菜
dishes: 茶香鸡、麻婆豆腐、外婆红烧肉
## 4
id: B0FFF1A004
name: 新白鹿餐厅(延安路店)
type: 餐饮服务;中餐厅;浙江菜
typecode: 050101
address: 延安路98号
location: 120.164100,30.252300
cityname: 杭州市
adname: 上城区
distance: 1900米
rating: 4.2
cost: 55元（人均）
opentime: 10:00-21:00
cuisine: 杭帮菜
dishes: 蛋黄鸡翅、糖醋排骨、新白鹿炒饭
"""

POI_HOTELS = """poi_search：关键词「酒店」，城市 杭州，共 3 条结果
## 1
id: B0HHH1H001
name: 杭州西湖国宾馆
type: 住宿服务;宾馆酒店;五星级宾馆
typecode: 100101
address: 杨公堤18号
location: 120.139800,30.243500
cityname: 杭州市
adname: 西湖区
rating: 4.8
cost: 1280元（每晚）
star: 5
beds: 2
features: 湖景房、免费WiFi、会议室、健身房
## 2
id: B0HHH1H002
name: 汉庭酒店(杭州西湖湖滨店)
type: 住宿服务;宾馆酒店;经济型连锁酒店
typecode: 100105
address: 平海路55号
location: 120.166300,30.257700
cityname: 杭州市
adname: 上城区
rating: 4.5
cost: 420元（每晚）
star: 2
beds: 2
features: 免费WiFi、近地铁、24小时前台
## 3
id: B0HHH1H003
name: 杭州国际会议中心洲际酒店
type: 住宿服务;宾馆酒店;五星级宾馆
typecode: 100101
address: 解放东路2号
location: 120.212000,30.245600
cityname: 杭州市
adname: 上城区
rating: 4.7
cost: 980元（每晚）
star: 5
beds: 1
features: 商务中心、会议室、免费WiFi、行政酒廊
"""

POI_SCIENCE = """poi_search：关键词「科技馆」，城市 杭州，共 3 条结果
## 1
id: B0KKK1K001
name: 中国杭州低碳科技馆
type: 科教文化服务;科技馆;科技馆
typecode: 140500
address: 之江路1198号
location: 120.164200,30.203300
cityname: 杭州市
adname: 滨江区
rating: 4.6
cost: 0元（门票）
opentime: 09:00-17:00
visit_hours: 3
features: 儿童互动展区、科普剧场
## 2
id: B0KKK1K002
name: 杭州动物园
type: 风景名胜;公园广场;动物园
typecode: 110102
address: 虎跑路40号
location: 120.143900,30.221800
cityname: 杭州市
adname: 西湖区
rating: 4.4
cost: 20元（门票）
opentime: 07:30-17:00
visit_hours: 3
## 3
id: B0KKK1K003
name: 中国茶叶博物馆(龙井馆区)
type: 科教文化服务;博物馆;博物馆
typecode: 140100
address: 龙井路88号
location: 120.125900,30.233600
cityname: 杭州市
adname: 西湖区
rating: 4.6
cost: 0元（门票）
opentime: 09:00-16:30
visit_hours: 2
features: 采茶体验、茶艺课堂
"""

DIRECTION_DRIVE = """direction：驾车，起点 120.148500,30.242500，终点 120.101000,30.240900
distance: 6.8公里
duration: 18分钟
taxi_cost: 25元
## 步骤
1. 沿「龙井路」向西行驶1.2公里
2. 右转进入「灵隐路」向西行驶2.3公里
3. 沿「天竺路」行驶800米
4. 到达终点"""

DIRECTION_TRANSIT = """direction：公交，起点 120.166300,30.257700，终点 120.144700,30.256400
distance: 3.5公里
duration: 32分钟
taxi_cost: 15元
lines: 地铁1号线
cost: 4元
walking_distance: 600米
## 步骤
1. 步行「平海路」向北 400米
2. 乘坐「地铁1号线」从「龙翔桥站」到「凤起路站」，2站，2.9公里
3. 步行「北山街」 200米 到达终点"""

DIRECTION_AIRPORT = """direction：驾车，起点 120.434500,30.229500，终点 120.166300,30.257700
distance: 35.6公里
duration: 42分钟
taxi_cost: 98元
## 步骤
1. 沿「机场大道」向西行驶5.2公里
2. 进入「G92杭州湾环线高速」行驶20.1公里
3. 沿「秋涛路」向北行驶3.0公里
4. 左转进入「平海路」行驶700米
5. 到达终点"""

DIRECTION_WALK = """direction：步行，起点 120.146200,30.254100，终点 120.149300,30.231400
distance: 2.6公里
duration: 36分钟
## 步骤
1. 沿「北山街」向东步行900米
2. 右转进入「南山路」向南步行1.7公里
3. 到达终点"""

WEATHER = """weather：杭州市（浙江省，adcode 330100）未来4天天气预报，发布时间 2025-03-01 07:00:00
## 2025-03-01 星期六
dayweather: 晴
nightweather: 多云
daytemp: 18℃
nighttemp: 8℃
daywind: 东北风
nightwind: 东北风
daypower: 1-3级
nightpower: 1-3级
## 2025-03-02 星期日
dayweather: 多云
nightweather: 小雨
daytemp: 16℃
nighttemp: 9℃
daywind: 东风
nightwind: 东风
daypower: 1-3级
nightpower: 1-3级
## 2025-03-03 星期一
dayweather: 小雨
nightweather: 阴
daytemp: 14℃
nighttemp: 10℃
daywind: 东南风
nightwind: 南风
daypower: 3-4级
nightpower: 1-3级
## 2025-03-04 星期二
dayweather: 阴
nightweather: 晴
daytemp: 17℃
nighttemp: 7℃
daywind: 北风
nightwind: 北风
daypower: 1-3级
nightpower: 1-3级
"""

FLIGHTS = """search_flights：2025-03-01 北京 → 杭州，共 4 个航班
航班 CA1702（中国国际航空） 07:30 北京首都国际机场 → 09:45 杭州萧山国际机场，飞行 2小时15分，经济舱 860元
航班 MU5131（东方航空） 10:05 北京大兴国际机场 → 12:20 杭州萧山国际机场，飞行 2小时15分，经济舱 720元
航班 HU7181（海南航空） 14:40 北京首都国际机场 → 16:55 杭州萧山国际机场，飞行 2小时15分，经济舱 690元
航班 CZ3891（南方航空） 21:50 北京大兴国际机场 → 00:05(次日) 杭州萧山国际机场，飞行 2小时15分，经济舱 520元
"""

TRAINS = """search_train_tickets：2025-03-01 北京 → 杭州，共 4 趟列车
车次 G35（高铁） 07:00 北京南站 → 11:38 杭州东站，历时 4小时38分，二等座 626元 / 一等座 1036元 / 商务座 2136元
车次 G167（高铁） 09:20 北京南站 → 14:45 杭州东站，历时 5小时25分，二等座 598元 / 一等座 985元 / 商务座 1978元
车次 D711（动车） 19:35 北京南站 → 07:02(次日) 杭州东站，历时 11小时27分，二等座 412元 / 一等座 630元
车次 G31（高铁） 14:00 北京南站 → 18:39 杭州东站，历时 4小时39分，二等座 626元 / 一等座 1036元 / 商务座 2136元
"""

ERROR_TEXT = "错误：参数 location 格式不正确，应为 'lng,lat'，例如 '120.155100,30.274100'"

TOOL_ARGS: dict[str, dict[str, Any]] = {
    "poi_search": {"address": "西湖", "region": "杭州"},
    "around_search": {"location": "120.148500,30.242500", "radius": 3000, "keyword": "餐厅"},
    "direction": {"origin": "120.148500,30.242500", "destination": "120.101000,30.240900", "mode": "driving"},
    "weather": {"city": "杭州", "date": "2025-03-01"},
    "search_flights": {"date": "2025-03-01", "from_city": "北京", "to_city": "杭州"},
    "search_train_tickets": {"date": "2025-03-01", "from_city": "北京", "to_city": "杭州"},
}


def build_trace(calls: list[tuple[str, str]], prompt: str = "请帮我规划行程") -> list[dict[str, Any]]:
    """An OpenAI chat transcript: one assistant message per call, each answered by a tool message."""
    msgs: list[dict[str, Any]] = [
        {"role": "system", "content": "你是旅行规划助手。"},
        {"role": "user", "content": prompt},
    ]
    for i, (name, text) in enumerate(calls):
        cid = f"call_{i}"
        msgs.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {
                            "name": name,
                            "arguments": json.dumps(TOOL_ARGS[name], ensure_ascii=False),
                        },
                    }
                ],
            }
        )
        msgs.append({"role": "tool", "tool_call_id": cid, "content": text})
    return msgs


def empty_trace() -> list[dict[str, Any]]:
    """A transcript without any tool call."""
    return build_trace([])
