// `convo-kit/settings`: an app's settings from the environment, checked at start (zod, nothing else loaded).
export {
  DEV_VARIABLES,
  fromEnv,
  readSettings,
  SettingsError,
  settingsOrExit,
  type DevVariable,
  type EnvSetting,
  type ReadSettingsOptions,
  type SettingsErrorCode,
  type SettingsOf,
  type SettingsShape,
} from './read-settings.js';
export { portSetting, RECEIVER_APP_SETTINGS, wholeNumber } from './app-settings.js';
