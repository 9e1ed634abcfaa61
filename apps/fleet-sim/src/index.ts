export { startFleet, planFleet, simModels, type Fleet, type FleetOptions } from './fleet.ts';
export { Mower, type MowerExtension, type MowerOptions } from './mower.ts';
export { MowerSim, type SimEvent } from './mower-sim.ts';
export { Garden } from './garden.ts';
export { places, type Place } from './places.ts';
export { createRng } from './rng.ts';
export { shellFeature, otaFeature } from './features.ts';
export { startAppUsers, planAppUsers, AppUserSim, type AppUserPlan, type AppUsers, type AppUsersOptions, type AppSignUp } from './app-users.ts';
