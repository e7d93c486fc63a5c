/// VAST and VMAP parsing.
public enum VASTPlaceholder {}
