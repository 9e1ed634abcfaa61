export default {
  'deviceMap.legend': '地图上共 {total} 台设备',
  'deviceMap.legend.one': '地图上共 {total} 台设备',
  'deviceMap.updated': '实时 · 更新于 {time}',
  'deviceMap.nearPlace': '附近：{name} · {km} 公里',
  'deviceMap.empty': '还没有设备上报位置',
};
