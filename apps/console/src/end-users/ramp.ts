/** The choropleth's light-to-dark green: reads on the blue (light) and near-black (dark) sea alike. */
export const RAMP = ['#AFF0B5', '#7BE188', '#4CD263', '#00B42A', '#008026'] as const;
