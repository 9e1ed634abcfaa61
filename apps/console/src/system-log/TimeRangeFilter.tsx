import { DatePicker } from '@arco-design/web-react';

export interface TimeRange {
  from?: string;
  to?: string;
}

/** A time range as the API's `from`/`to` ISO bounds (the picker shows the reader's local time). */
export function TimeRangeFilter({ value, onChange }: { value: TimeRange; onChange(next: TimeRange): void }) {
  return (
    <DatePicker.RangePicker
      showTime
      allowClear
      style={{ width: 380 }}
      value={value.from && value.to ? [new Date(value.from), new Date(value.to)] : []}
      onChange={(_, dates) =>
        onChange(dates?.length === 2 ? { from: dates[0]!.toISOString(), to: dates[1]!.toISOString() } : { from: undefined, to: undefined })
      }
    />
  );
}
