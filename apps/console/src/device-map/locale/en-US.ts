export default {
  'deviceMap.legend': '{total} devices on the map',
  'deviceMap.legend.one': '{total} device on the map',
  'deviceMap.updated': 'Live · updated {time}',
  'deviceMap.nearPlace': 'Near {name} · {km} km',
  'deviceMap.empty': 'No device has reported a position yet',
};
