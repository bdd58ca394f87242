{
  "targets": [
    {
      "target_name": "malloc_tuning",
      "sources": ["malloc_tuning.c"]
    }
  ]
}
