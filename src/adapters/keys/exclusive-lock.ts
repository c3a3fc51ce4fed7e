/** @module proper-lockfile's lock, in a module of its own: loaded only by writers of the keys file. */
// A module of ours, imported statically: the compiled binary's split bundle mis-wires a CommonJS package imported
// dynamically (`m is not a function` when the keys command locks the file).
export { lock } from "proper-lockfile";
